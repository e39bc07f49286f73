"""A Llama decoder block through dist.parallelize on 4 local ranks (rank programs in
llama_block_cases.py): dp2 x mp2 with Paddle 3.0's ColWise/RowWise plan equals one process
within 1e-4 over AdamW steps, with the collectives of each step counted exactly and no op left
without an SPMD rule."""
from test_auto_parallel import run
from test_distributed import assert_ok


def ok_without_fallback(results):
    assert_ok(results)
    for r, (_, log) in enumerate(results):
        assert "has no SPMD rule" not in log, f"rank {r}:\n{log}"


def test_llama_block_dp2_mp2():
    ok_without_fallback(run("llama_dp2_mp2", 4, cases="llama_block_cases.py"))
