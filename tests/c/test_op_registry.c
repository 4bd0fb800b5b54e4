/*
 * test_op_registry.c — the op-spec parser (every form of the notation, and
 * errors on bad specs), the registry (extra tables, lookup, order,
 * duplicates), the built-in tables' check, and out-of-memory behaviour.
 */
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"
#include "harness.h"

/* Parses a spec with the given parts; returns the status code. */
static tfc_code parse(const char *in, const char *out, const char *attrs, tfc_op_def *def,
                      tfc_status *st) {
  tfc_op_spec spec = {"TestParse", in, out, attrs, 0, NULL};
  tfc_status_clear(st);
  tfc_op_spec_parse(&spec, def, st);
  return st->code;
}

/* True when attr def a allows dtype t. */
static bool allows(const tfc_attr_def *a, tfc_dtype t) {
  for (int i = 0; i < a->n_allowed_types; i++)
    if (a->allowed_types[i] == t) return true;
  return false;
}

TFC_TEST(op_registry_parse_args) {
  tfc_op_def d;
  tfc_status st;
  parse("x: T; values: N * T; ref: Ref(T); shape: int32; data: U", "y: T; z: N * int64; r: Ref(T)",
        "T: {float, double}; N: int >= 2; U: list(type)", &d, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(d.n_inputs, 5);
  CHECK(strcmp(d.inputs[0].name, "x") == 0);
  CHECK(strcmp(d.inputs[0].type_attr, "T") == 0);
  CHECK(d.inputs[0].number_attr == NULL && !d.inputs[0].is_ref);
  CHECK(strcmp(d.inputs[1].number_attr, "N") == 0 && strcmp(d.inputs[1].type_attr, "T") == 0);
  CHECK(d.inputs[2].is_ref && strcmp(d.inputs[2].type_attr, "T") == 0);
  CHECK_EQ_INT(d.inputs[3].type, TFC_DTYPE_INT32);
  CHECK(d.inputs[3].type_attr == NULL);
  CHECK(strcmp(d.inputs[4].type_list_attr, "U") == 0);
  CHECK_EQ_INT(d.n_outputs, 3);
  CHECK_EQ_INT(d.outputs[1].type, TFC_DTYPE_INT64);
  CHECK(strcmp(d.outputs[1].number_attr, "N") == 0);
  CHECK(d.outputs[2].is_ref);
  CHECK_EQ_INT(d.n_attrs, 3);
  tfc_op_def_clear(&d);
}

TFC_TEST(op_registry_parse_attr_types) {
  tfc_op_def d;
  tfc_status st;
  parse("", "",
        "a: int; b: float; c: bool; d: string; e: type; f: shape; g: tensor; h: func; "
        "i: list(int); j: list(float); k: list(bool); l: list(string); m: list(type); "
        "n: list(shape); o: list(tensor); p: list(func)",
        &d, &st);
  CHECK_STATUS_OK(&st);
  static const char *const want[] = {"int", "float", "bool", "string", "type", "shape", "tensor",
                                     "func", "list(int)", "list(float)", "list(bool)",
                                     "list(string)", "list(type)", "list(shape)", "list(tensor)",
                                     "list(func)"};
  CHECK_EQ_INT(d.n_attrs, 16);
  for (int i = 0; i < 16; i++) {
    CHECK(strcmp(d.attrs[i].type, want[i]) == 0);
    CHECK(!d.attrs[i].has_default && !d.attrs[i].has_minimum);
  }
  tfc_op_def_clear(&d);
}

TFC_TEST(op_registry_parse_type_sets) {
  tfc_op_def d;
  tfc_status st;
  parse("", "",
        "a: {float, double, int32}; b: numbertype; c: realnumbertype; d: quantizedtype; "
        "e: list({int32, int64}); f: list(numbertype) >= 1; g: {'SAME', 'VALID'}",
        &d, &st);
  CHECK_STATUS_OK(&st);
  CHECK(strcmp(d.attrs[0].type, "type") == 0);
  CHECK_EQ_INT(d.attrs[0].n_allowed_types, 3);
  CHECK_EQ_INT(d.attrs[0].allowed_types[0], TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(d.attrs[0].allowed_types[2], TFC_DTYPE_INT32);
  /* numbertype: TF's 19 types, in TF's order. */
  CHECK_EQ_INT(d.attrs[1].n_allowed_types, 19);
  CHECK_EQ_INT(d.attrs[1].allowed_types[0], TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(d.attrs[1].allowed_types[18], TFC_DTYPE_UINT64);
  CHECK(allows(&d.attrs[1], TFC_DTYPE_COMPLEX64) && allows(&d.attrs[1], TFC_DTYPE_QINT8));
  CHECK(!allows(&d.attrs[1], TFC_DTYPE_STRING) && !allows(&d.attrs[1], TFC_DTYPE_BOOL));
  CHECK_EQ_INT(d.attrs[2].n_allowed_types, 12);
  CHECK(!allows(&d.attrs[2], TFC_DTYPE_COMPLEX64) && !allows(&d.attrs[2], TFC_DTYPE_QINT8));
  CHECK(allows(&d.attrs[2], TFC_DTYPE_HALF) && allows(&d.attrs[2], TFC_DTYPE_UINT32));
  CHECK_EQ_INT(d.attrs[3].n_allowed_types, 5);
  CHECK(allows(&d.attrs[3], TFC_DTYPE_QINT32) && !allows(&d.attrs[3], TFC_DTYPE_FLOAT));
  CHECK(strcmp(d.attrs[4].type, "list(type)") == 0);
  CHECK_EQ_INT(d.attrs[4].n_allowed_types, 2);
  CHECK(strcmp(d.attrs[5].type, "list(type)") == 0);
  CHECK(d.attrs[5].has_minimum && d.attrs[5].minimum == 1);
  CHECK(strcmp(d.attrs[6].type, "string") == 0);
  CHECK_EQ_INT(d.attrs[6].n_allowed_strings, 2);
  CHECK(strcmp(d.attrs[6].allowed_strings[0], "SAME") == 0);
  CHECK(strcmp(d.attrs[6].allowed_strings[1], "VALID") == 0);
  tfc_op_def_clear(&d);
}

TFC_TEST(op_registry_parse_defaults) {
  tfc_op_def d;
  tfc_status st;
  parse("", "",
        "a: int = 0; b: int = -1; c: float = 1e-4; d: bool = true; e: string = 'NHWC'; "
        "f: type = int32; g: list(int) = [1, 1, 1, 1]; h: list(int) = []; i: shape = <unknown>; "
        "j: shape = [2, 3]; k: shape = []; l: {int32, int64} = int64; m: string = ''; "
        "n: list(string) = ['a', \"b;c\"]; o: list(type) = [float, int32]; "
        "p: list(shape) = [[1, -1], []]; q: list(float) = [0.5, 2]; r: list(bool) = [false]; "
        "s: float = -inf; t: {'SAME', 'VALID'} = 'VALID'; u: int >= 2 = 3; "
        "v: shape = [?, 4]",
        &d, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(d.n_attrs, 22);
  for (int i = 0; i < d.n_attrs; i++) CHECK(d.attrs[i].has_default);
  CHECK(d.attrs[0].default_value.kind == TFC_ATTR_I && d.attrs[0].default_value.v.i == 0);
  CHECK_EQ_INT(d.attrs[1].default_value.v.i, -1);
  CHECK_NEAR(d.attrs[2].default_value.v.f, 1e-4, 1e-9);
  CHECK(d.attrs[3].default_value.kind == TFC_ATTR_B && d.attrs[3].default_value.v.b);
  CHECK(d.attrs[4].default_value.kind == TFC_ATTR_S);
  CHECK(d.attrs[4].default_value.v.s.len == 4 && memcmp(d.attrs[4].default_value.v.s.data, "NHWC", 4) == 0);
  CHECK(d.attrs[5].default_value.kind == TFC_ATTR_TYPE);
  CHECK_EQ_INT(d.attrs[5].default_value.v.type, TFC_DTYPE_INT32);
  const tfc_attr_list *g = &d.attrs[6].default_value.v.list;
  CHECK(d.attrs[6].default_value.kind == TFC_ATTR_LIST && g->kind == TFC_ATTR_I && g->n == 4);
  CHECK(g->v.i[0] == 1 && g->v.i[3] == 1);
  CHECK(d.attrs[7].default_value.kind == TFC_ATTR_LIST);
  CHECK(d.attrs[7].default_value.v.list.n == 0 && d.attrs[7].default_value.v.list.kind == TFC_ATTR_I);
  CHECK(d.attrs[8].default_value.kind == TFC_ATTR_SHAPE && d.attrs[8].default_value.v.shape.rank == -1);
  const tfc_shape *j = &d.attrs[9].default_value.v.shape;
  CHECK(j->rank == 2 && j->dims[0] == 2 && j->dims[1] == 3);
  CHECK_EQ_INT(d.attrs[10].default_value.v.shape.rank, 0);
  CHECK_EQ_INT(d.attrs[11].default_value.v.type, TFC_DTYPE_INT64);
  CHECK(d.attrs[12].default_value.kind == TFC_ATTR_S && d.attrs[12].default_value.v.s.len == 0);
  const tfc_attr_list *n = &d.attrs[13].default_value.v.list;
  CHECK(n->kind == TFC_ATTR_S && n->n == 2);
  CHECK(n->v.s[1].len == 3 && memcmp(n->v.s[1].data, "b;c", 3) == 0);
  const tfc_attr_list *o = &d.attrs[14].default_value.v.list;
  CHECK(o->kind == TFC_ATTR_TYPE && o->n == 2 && o->v.type[1] == TFC_DTYPE_INT32);
  const tfc_attr_list *p = &d.attrs[15].default_value.v.list;
  CHECK(p->kind == TFC_ATTR_SHAPE && p->n == 2);
  CHECK(p->v.shape[0].rank == 2 && p->v.shape[0].dims[1] == -1 && p->v.shape[1].rank == 0);
  const tfc_attr_list *q = &d.attrs[16].default_value.v.list;
  CHECK(q->kind == TFC_ATTR_F && q->n == 2 && q->v.f[1] == 2.0f);
  const tfc_attr_list *r = &d.attrs[17].default_value.v.list;
  CHECK(r->kind == TFC_ATTR_B && r->n == 1 && !r->v.b[0]);
  CHECK(d.attrs[18].default_value.v.f < -1e30f);
  CHECK(d.attrs[19].default_value.v.s.len == 5);
  CHECK(d.attrs[20].has_minimum && d.attrs[20].minimum == 2 && d.attrs[20].default_value.v.i == 3);
  CHECK(d.attrs[21].default_value.v.shape.rank == 2 && d.attrs[21].default_value.v.shape.dims[0] == -1);
  tfc_op_def_clear(&d);
}

TFC_TEST(op_registry_parse_number_attr_gets_minimum) {
  tfc_op_def d;
  tfc_status st;
  parse("values: N * T", "out: T", "T: type; N: int", &d, &st);
  CHECK_STATUS_OK(&st);
  CHECK(d.attrs[1].has_minimum && d.attrs[1].minimum == 0);
  tfc_op_def_clear(&d);
}

TFC_TEST(op_registry_parse_errors) {
  static const struct {
    const char *in, *out, *attrs, *needle;
  } bad[] = {
      {"x: T", "", "", "'T'"},                          /* undefined attr */
      {"x T", "", "T: type", "no ':'"},                 /* missing colon */
      {"x: T; x: T", "", "T: type", "duplicate"},       /* duplicate arg */
      {"", "", "T: type; T: int", "duplicate attr"},    /* duplicate attr */
      {"", "", "T: {float, bogus}", "bogus"},           /* unknown type in set */
      {"", "", "a: int = x", "bad int"},                /* bad default */
      {"", "", "a: bool = 1", "bad bool"},
      {"", "", "a: float = 1.5x", "bad float"},
      {"", "", "a: string = NHWC", "quoted"},
      {"", "", "a: shape = [2, x]", "dimension"},
      {"", "", "a: list(int) = 1", "list default"},
      {"", "", "a: wibble", "unknown attr type"},
      {"", "", "a: {float, double} = int32", "allowed"},  /* default outside the set */
      {"", "", "a: {'A', 'B'} = 'C'", "allowed"},
      {"", "", "a: int >= 2 = 1", "minimum"},
      {"", "", "a: bool >= 1", "minimum"},
      {"", "", "a: int >= x", "minimum"},
      {"", "", "a: list(int = [1]", "unbalanced"},
      {"x: N * T", "", "T: type; N: float", "must be an int"},
      {"x: N * T", "", "T: type", "no attr"},
      {"x: T", "", "T: int", "not type"},
      {"x: Ref(T", "", "T: type", "Ref"},
      {"x: float_ref", "", "", "unknown type"},
      {"x: N * U", "", "N: int; U: list(type)", "list(type)"},
      {"", "", "a: string = 'x", "quote"},
      {"", "", "a: tensor = 1", "not supported"},
      {"", "", "9a: int", "bad attr name"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tfc_op_def d;
    tfc_status st;
    tfc_code c = parse(bad[i].in, bad[i].out, bad[i].attrs, &d, &st);
    if (c != TFC_CODE_INVALID_ARGUMENT || !strstr(st.msg, bad[i].needle) ||
        !strstr(st.msg, "TestParse")) {
      fprintf(stderr, "case %zu (%s | %s | %s): %s: %s\n", i, bad[i].in, bad[i].out, bad[i].attrs,
              tfc_code_name(c), st.msg);
      CHECK(0);
    }
    CHECK(d.name == NULL && d.n_attrs == 0);  /* cleared on failure */
  }
  tfc_op_spec lower = {"lowercase", "", "", "", 0, NULL};
  tfc_op_def d;
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(!tfc_op_spec_parse(&lower, &d, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
}

TFC_TEST(op_registry_parse_oom) {
  /* Every allocation of a rich spec fails in turn: always a clean status. */
  tfc_op_spec spec = {"TestOom", "x: T; v: N * T; d: U", "y: T",
                      "T: numbertype; N: int >= 1; U: list(type) = [float]; s: string = 'abc'; "
                      "l: list(string) = ['a', 'b']; p: {'A', 'B'} = 'A'; sh: shape = [1, 2]",
                      0, NULL};
  bool finished = false;
  for (int k = 1; k < 200 && !finished; k++) {
    tfc_op_def d;
    tfc_status st;
    tfc_status_clear(&st);
    tfc_alloc_fail_after(k);
    bool ok = tfc_op_spec_parse(&spec, &d, &st);
    tfc_alloc_fail_after(0);
    if (ok) {
      finished = true;
      tfc_op_def_clear(&d);
    } else {
      CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
      CHECK(d.name == NULL);
    }
  }
  CHECK(finished);
}

/* A private table registered once for the registry tests. */
static const tfc_op_spec k_reg_specs[] = {
    {"TestRegB", "x: T", "y: T", "T: type", 0, tfc_shape_fn_unchanged},
    {"TestRegA", "", "y: float", "", TFC_OP_STATEFUL, NULL},
    {"TestRegC", "a: int32; b: int32", "z: int32", "", 0, tfc_shape_fn_broadcast},
};
static const tfc_op_table k_reg_table = {k_reg_specs, 3};

/* Registers k_reg_table once per process. */
static bool ensure_reg_table(tfc_status *st) {
  static bool done;
  tfc_status_clear(st);
  if (done) return true;
  done = tfc_op_registry_add_table(&k_reg_table, st);
  return done;
}

TFC_TEST(op_registry_add_table_and_lookup) {
  tfc_status st;
  CHECK(ensure_reg_table(&st));
  const tfc_op_def *a = tfc_op_lookup("TestRegA");
  const tfc_op_def *b = tfc_op_lookup("TestRegB");
  CHECK(a && b && tfc_op_lookup("TestRegC"));
  CHECK(strcmp(a->name, "TestRegA") == 0 && (a->flags & TFC_OP_STATEFUL));
  CHECK(b->shape_fn == tfc_shape_fn_unchanged);
  CHECK(tfc_op_lookup("TestRegZ") == NULL);
  CHECK(tfc_op_lookup("") == NULL);
  CHECK(tfc_op_find_attr(b, "T") != NULL && tfc_op_find_attr(b, "U") == NULL);
  /* Sorted by name, every op reachable by index. */
  int n = tfc_op_count();
  CHECK(n >= 3);
  for (int i = 1; i < n; i++) CHECK(strcmp(tfc_op_at(i - 1)->name, tfc_op_at(i)->name) < 0);
  for (int i = 0; i < n; i++) CHECK(tfc_op_lookup(tfc_op_at(i)->name) == tfc_op_at(i));
  CHECK(tfc_op_at(-1) == NULL && tfc_op_at(n) == NULL);
}

TFC_TEST(op_registry_add_table_errors) {
  tfc_status st;
  CHECK(ensure_reg_table(&st));
  int before = tfc_op_count();
  /* A name already registered. */
  static const tfc_op_spec dup[] = {{"TestRegNew1", "", "", "", 0, NULL},
                                    {"TestRegA", "", "", "", 0, NULL}};
  static const tfc_op_table dup_t = {dup, 2};
  CHECK(!tfc_op_registry_add_table(&dup_t, &st));
  CHECK_CODE(&st, TFC_CODE_ALREADY_EXISTS);
  CHECK(strstr(st.msg, "TestRegA") != NULL);
  /* A name repeated inside the table. */
  static const tfc_op_spec dup2[] = {{"TestRegNew2", "", "", "", 0, NULL},
                                     {"TestRegNew2", "", "", "", 0, NULL}};
  static const tfc_op_table dup2_t = {dup2, 2};
  tfc_status_clear(&st);
  CHECK(!tfc_op_registry_add_table(&dup2_t, &st));
  CHECK_CODE(&st, TFC_CODE_ALREADY_EXISTS);
  /* A bad spec. */
  static const tfc_op_spec bad[] = {{"TestRegNew3", "", "", "", 0, NULL},
                                    {"TestRegBad", "x: Q", "", "", 0, NULL}};
  static const tfc_op_table bad_t = {bad, 2};
  tfc_status_clear(&st);
  CHECK(!tfc_op_registry_add_table(&bad_t, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "TestRegBad") != NULL);
  /* Nothing was added by the failed calls. */
  CHECK_EQ_INT(tfc_op_count(), before);
  CHECK(tfc_op_lookup("TestRegNew1") == NULL && tfc_op_lookup("TestRegNew3") == NULL);
}

TFC_TEST(op_registry_add_table_oom) {
  static const tfc_op_spec specs[] = {{"TestRegOomX", "x: T", "y: T", "T: {float, int32} = float", 0, NULL},
                                      {"TestRegOomY", "", "", "a: list(int) = [1, 2]", 0, NULL}};
  static const tfc_op_table t = {specs, 2};
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(tfc_op_registry_load(&st));
  int before = tfc_op_count();
  bool added = false;
  for (int k = 1; k < 100 && !added; k++) {
    tfc_status_clear(&st);
    tfc_alloc_fail_after(k);
    added = tfc_op_registry_add_table(&t, &st);
    tfc_alloc_fail_after(0);
    if (!added) {
      CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
      CHECK_EQ_INT(tfc_op_count(), before);
    }
  }
  CHECK(added);
  CHECK_EQ_INT(tfc_op_count(), before + 2);
  CHECK(tfc_op_lookup("TestRegOomX") && tfc_op_lookup("TestRegOomY"));
}

TFC_TEST(op_registry_builtin_tables_are_valid) {
  tfc_status st;
  tfc_status_clear(&st);
  bool ok = tfc_op_registry_check(&st);
  if (!ok) fprintf(stderr, "op_registry_check: %s\n", st.msg);
  CHECK(ok);
  /* Every built-in op's defaults are complete enough to render its summary. */
  char buf[2048];
  for (int i = 0; i < tfc_op_count(); i++) {
    tfc_op_summarize_def(tfc_op_at(i), buf, (int)sizeof buf);
    CHECK(strncmp(buf, "Op<name=", 8) == 0);
  }
}

TFC_TEST(op_registry_summaries) {
  tfc_op_def d;
  tfc_status st;
  tfc_op_spec spec = {"AddLike", "x: T; y: T", "z: T", "T: {float, int32}; flag: bool = false",
                      TFC_OP_COMMUTATIVE, NULL};
  tfc_status_clear(&st);
  CHECK(tfc_op_spec_parse(&spec, &d, &st));
  char buf[512];
  tfc_op_summarize_def(&d, buf, (int)sizeof buf);
  CHECK(strcmp(buf, "Op<name=AddLike; signature=x:T, y:T -> z:T; attr=T:type,allowed=[DT_FLOAT, "
                    "DT_INT32]; attr=flag:bool,default=false; is_commutative=true>") == 0);
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value v = tfc_attr_type(TFC_DTYPE_FLOAT);
  CHECK(tfc_attrs_set(&attrs, "T", &v, &st));
  const char *names[] = {"a", "b:1"};
  tfc_op_summarize_node(&d, "add", &attrs, 2, names, buf, (int)sizeof buf);
  CHECK(strcmp(buf, "{{node add}} = AddLike[T=DT_FLOAT](a, b:1)") == 0);
  tfc_op_summarize_node(&d, "add", &attrs, 2, names, buf, 10);  /* truncates safely */
  CHECK(strlen(buf) == 9);
  tfc_attrs_destroy(&attrs);
  CHECK(strcmp(tfc_op_dtype_string(TFC_DTYPE_HALF), "half") == 0);
  CHECK(strcmp(tfc_op_dtype_string(tfc_dtype_ref(TFC_DTYPE_FLOAT)), "float_ref") == 0);
  tfc_op_def_clear(&d);
}

/* Runs the broadcast shape fn on two shapes. */
static bool run_broadcast(tfc_shape a, tfc_shape b, tfc_shape *out, tfc_status *st) {
  static tfc_op_def def = {.name = "BcastOp"};
  tfc_shape in[2] = {a, b};
  tfc_dtype types[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};
  tfc_tensor *vals[2] = {NULL, NULL};
  const char *names[2] = {"x", "y"};
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  *out = tfc_shape_unknown();
  tfc_shape_ctx ctx = {&def, &attrs, "add", 2, in, types, vals, 1, out, st, names};
  tfc_status_clear(st);
  return tfc_shape_fn_broadcast(&ctx);
}

TFC_TEST(op_registry_shape_fn_broadcast) {
  tfc_status st;
  tfc_shape out;
  int64_t d23[] = {2, 3}, d3[] = {3}, d1x3[] = {1, 3}, d4x1[] = {4, 1}, du[] = {-1, 3}, d2[] = {2};
  CHECK(run_broadcast(tfc_shape_make(2, d23), tfc_shape_make(1, d3), &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == 2 && out.dims[1] == 3);
  CHECK(run_broadcast(tfc_shape_make(2, d1x3), tfc_shape_make(2, d4x1), &out, &st));
  CHECK(out.rank == 2 && out.dims[0] == 4 && out.dims[1] == 3);
  CHECK(run_broadcast(tfc_shape_make(2, du), tfc_shape_make(2, d23), &out, &st));
  CHECK(out.dims[0] == 2 && out.dims[1] == 3);
  CHECK(run_broadcast(tfc_shape_make(2, du), tfc_shape_make(1, d3), &out, &st));
  CHECK(out.dims[0] == -1 && out.dims[1] == 3);
  CHECK(run_broadcast(tfc_shape_unknown(), tfc_shape_make(1, d3), &out, &st));
  CHECK(out.rank == -1);
  CHECK(run_broadcast(tfc_shape_scalar(), tfc_shape_make(1, d3), &out, &st));
  CHECK(out.rank == 1 && out.dims[0] == 3);
  CHECK(!run_broadcast(tfc_shape_make(1, d2), tfc_shape_make(1, d3), &out, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Dimensions must be equal, but are 2 and 3 for '{{node add}} = BcastOp(x, y)' "
                       "with input shapes: [2], [3].") == 0);
  CHECK(strcmp(st.node, "add") == 0);
}

TFC_TEST(op_registry_shape_from_const_input) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t dims[] = {3};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_INT32, 1, dims, &st);
  CHECK(t != NULL);
  int32_t *p = t->data;
  p[0] = 2, p[1] = -1, p[2] = 5;
  static tfc_op_def def = {.name = "ReshapeLike"};
  int64_t d3[] = {3};
  tfc_shape in[2] = {tfc_shape_unknown(), tfc_shape_make(1, d3)};
  tfc_dtype types[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_INT32};
  tfc_tensor *vals[2] = {NULL, t};
  tfc_shape out[1];
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_shape_ctx ctx = {&def, &attrs, "r", 2, in, types, vals, 1, out, &st, NULL};
  tfc_shape s;
  CHECK(tfc_shape_from_const_input(&ctx, 1, &s));
  CHECK(s.rank == 3 && s.dims[0] == 2 && s.dims[1] == -1 && s.dims[2] == 5);
  vals[1] = NULL;
  CHECK(!tfc_shape_from_const_input(&ctx, 1, &s));
  CHECK(s.rank == 3 && s.dims[0] == -1);  /* rank from the static shape */
  CHECK(!tfc_shape_from_const_input(&ctx, 0, &s));
  CHECK(s.rank == -1);
  tfc_tensor_unref(t);
  /* Scalar/none/unchanged helpers. */
  CHECK(tfc_shape_fn_scalar(&ctx) && out[0].rank == 0);
  in[0] = tfc_shape_make(1, d3);
  CHECK(tfc_shape_fn_unchanged(&ctx) && out[0].rank == 1 && out[0].dims[0] == 3);
  CHECK(tfc_shape_fn_none(&ctx));
}
