"""tools/opgen, the op records' one reader: the real records load, and each kind of bad record
is an error naming the file, the op and the key (nothing is skipped)."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import opgen  # noqa: E402

GOOD = """- op : cast
  args : (Tensor x, DataType dtype)
  output : Tensor(out)
  infer_meta : {func : cast_meta}
  kernel : {dtypes : [all]}
  traits : [pure, elementwise]
  amp : promote
  variants : [function]
- op : twice
  args : (Tensor x)
  output : Tensor(out)
  infer_meta : {func : unchanged_meta}
  kernel : {dtypes : [float]}
  traits : [pure, elementwise]
  amp : promote
  variants : [function]
"""


def load(tmp_path, extra):
    (tmp_path / "fam.yaml").write_text(GOOD + extra)  # extra keys go to the last record
    return opgen.load(str(tmp_path))


def test_the_records_load_with_every_key():
    ops = {op.name: op for op in opgen.load(os.path.join(ROOT, "skiff", "ops", "yaml"))}
    assert len(ops) > 150
    assert ops["add"].traits == ["pure", "elementwise", "commutative"]
    assert ops["matmul"].amp == {"float16": "white", "bfloat16": "white"}
    assert ops["exp"].amp == {"float16": "black", "bfloat16": "promote"}
    assert ops["uniform"].traits == []  # random: not pure
    assert ops["silu"].decomp["text"] == {"out": "multiply(x, sigmoid(x))"}
    assert ops["matmul"].spmd_rule == "matmul_spmd"
    assert all(op.variants is not None and op.amp for op in ops.values())


@pytest.mark.parametrize("extra, message", [
    ("  colour : red\n", "op 'twice': key 'colour': unknown key"),
    ("  spmd_rule : nope_spmd\n", "op 'twice': key 'spmd_rule': 'nope_spmd' is not a declared rule"),
    ("  decomp :\n    out : frobnicate(x)\n", "op 'twice': key 'decomp': calls 'frobnicate', not an op"),
    ("  decomp :\n    out : cast(y, float32)\n", "key 'decomp': names 'y', not an argument"),
    ("  decomp :\n    out : cast(x)\n", "key 'decomp': 'cast' takes (x, dtype)"),
    ("  promote : [z]\n", "op 'twice': key 'promote': 'z' is not a Tensor argument"),
])
def test_bad_keys_name_the_op_and_key(tmp_path, extra, message):
    with pytest.raises(opgen.RecordError) as e:
        load(tmp_path, extra)
    assert message in str(e.value)
    assert "fam.yaml" in str(e.value)


@pytest.mark.parametrize("old, new, message", [
    ("  traits : [pure, elementwise]\n  amp : promote\n  variants : [function]\n",
     "  traits : [pure, shiny]\n  amp : promote\n  variants : [function]\n",
     "key 'traits': unknown trait 'shiny'"),
    ("  amp : promote\n", "  amp : grey\n", "key 'amp': unknown class 'grey'"),
    ("  variants : [function]\n", "  variants : [inplace]\n", "key 'variants': the inplace variant needs"),
    ("  kernel : {dtypes : [float]}\n", "  kernel : {dtypes : [float], fast : true}\n",
     "key 'kernel': unknown keys ['fast']"),
    ("  traits : [pure, elementwise]\n  amp : promote\n  variants : [function]\n", "",
     "key 'traits': is required"),
])
def test_bad_values_name_the_op_and_key(tmp_path, old, new, message):
    text = GOOD[:GOOD.index("- op : twice")] + GOOD[GOOD.index("- op : twice"):].replace(old, new)
    (tmp_path / "fam.yaml").write_text(text)
    with pytest.raises(opgen.RecordError) as e:
        opgen.load(str(tmp_path))
    assert "op 'twice'" in str(e.value) and message in str(e.value)


def test_a_comment_inside_a_record_is_refused(tmp_path):
    text = GOOD.replace("  kernel : {dtypes : [float]}\n", "# the next op's comment\n"
                        "  kernel : {dtypes : [float]}\n")
    (tmp_path / "fam.yaml").write_text(text)
    with pytest.raises(opgen.RecordError, match="a comment inside a record"):
        opgen.load(str(tmp_path))


def test_an_ir_only_op_with_a_record_is_refused(tmp_path):
    ops = opgen.load(os.path.join(ROOT, "skiff", "ops", "yaml"))
    real = opgen.records.load_ir_only(os.path.join(ROOT, "skiff", "ir", "dialects",
                                                   "ir_ops.yaml"), ops)
    assert "data" in {op.name for op in real}
    (tmp_path / "ir.yaml").write_text("- op : add\n  args : (Tensor x, Tensor y)\n"
                                      "  output : Tensor(out)\n  traits : [pure]\n")
    with pytest.raises(opgen.RecordError, match="op 'add': has an op record"):
        opgen.records.load_ir_only(str(tmp_path / "ir.yaml"), ops)
