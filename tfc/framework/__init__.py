"""Graph-construction framework: dtypes, shapes, Graph/Operation/Tensor, op construction."""
