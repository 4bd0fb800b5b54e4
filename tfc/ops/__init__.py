"""Op wrappers grouped by family (TF 1.15 layout)."""
