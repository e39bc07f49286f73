"""skiff/ops/spmd_rules.yaml (the names op records may use in `spmd_rule`) and the SPMD rule
functions of skiff/dist/spmd/rules.h name exactly the same rules, and every record's rule is one
of them."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import opgen  # noqa: E402
from opgen import vocab  # noqa: E402


def declared_functions():
    with open(os.path.join(ROOT, "skiff", "dist", "spmd", "rules.h")) as f:
        return set(re.findall(r"^SpmdInfo (\w+)\(", f.read(), re.M))


def test_yaml_list_matches_rule_functions():
    functions = declared_functions()
    listed = vocab.spmd_rules()
    assert "matmul_spmd" in functions
    assert listed - functions == set(), "listed in spmd_rules.yaml but not implemented"
    assert functions - listed == set(), "implemented but not listed in spmd_rules.yaml"


def test_records_use_implemented_rules():
    functions = declared_functions()
    ops = opgen.load(os.path.join(ROOT, "skiff", "ops", "yaml"))
    used = {op.spmd_rule for op in ops if op.spmd_rule}
    assert used, "no record names an spmd_rule"
    assert used <= functions
