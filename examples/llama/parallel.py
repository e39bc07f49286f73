"""Automatic parallelism for train.py (Paddle 3.0's intermediate API): the job's ranks as a
dp x mp ProcessMesh, Paddle's Llama tensor-parallel plan written for model.py's layer names,
the data-parallel loader and the distributed checkpoint.

Nothing here is Llama-specific beyond the plan: parallelize places the parameters, the SPMD
rules of every op infer the activations' layouts and the reshards between them (an all-reduce
after each row-parallel linear, the gradient all-reduce of data parallelism), so model.py runs
unchanged on one process or many."""
import os
import subprocess
import sys

import numpy as np

import skiff as paddle
import skiff.distributed as dist


def launched_world():
    """The world size of the job this process is a rank of (1 when not started by a launcher)."""
    return int(os.environ.get("PADDLE_TRAINERS_NUM", "1"))


def relaunch(script, argv, nproc, log_dir):
    """Runs `script argv` as nproc ranks of python -m skiff.distributed.launch (one workerlog per
    rank in log_dir, rank 0's output streamed); returns the job's exit code."""
    cmd = [sys.executable, "-m", "skiff.distributed.launch", "--nproc_per_node", str(nproc),
           "--log_dir", log_dir, script, *argv]
    return subprocess.call(cmd)


def mesh_sizes(world, nproc, dp, mp, batch_size):
    """(dp, mp) for a job of `world` ranks training global batches of batch_size; SystemExit
    with the reason when they do not fit."""
    if nproc not in (1, world):
        sys.exit(f"--nproc {nproc} does not match the job's {world} ranks")
    if mp < 1 or world % mp:
        sys.exit(f"--mp {mp} must divide the job's {world} ranks")
    dp = world // mp if dp is None else dp
    if dp * mp != world:
        sys.exit(f"--dp {dp} x --mp {mp} must equal the job's {world} ranks (pass --nproc "
                 f"{dp * mp})")
    if batch_size % dp:
        sys.exit(f"--batch-size {batch_size} must divide by --dp {dp}")
    return dp, mp


def llama_plan(tie_embeddings):
    """Paddle's Llama plan (its parallelize docstring) for model.py's names: column-parallel
    q/k/v and SwiGLU gate/up projections (their outputs split by heads / hidden units),
    row-parallel o/down projections (partial sums all-reduced where the residual needs them),
    the embedding split by columns and gathered, the head's weight split by vocabulary."""
    col, row = dist.ColWiseParallel, dist.RowWiseParallel
    plan = {r"layers\.\d+\.attn\.w[qkv]": col(), r"layers\.\d+\.attn\.wo": row(),
            r"layers\.\d+\.mlp\.w[13]": col(), r"layers\.\d+\.mlp\.w2": row(),
            "embed": col(gather_output=True)}
    if not tie_embeddings:
        plan["head.weight"] = col()
    return plan


class Job:
    """This rank's view of the job: the mesh and the distributed model, loader and checkpoint."""

    def __init__(self, world, nproc, dp, mp, batch_size):
        self.dp, self.mp = mesh_sizes(world, nproc, dp, mp, batch_size)
        dist.init_parallel_env()
        self.rank = dist.get_rank()
        ids = np.arange(world).reshape(self.dp, self.mp).tolist()
        self.mesh = dist.ProcessMesh(ids, dim_names=["dp", "mp"])

    @property
    def is_main(self):
        return self.rank == 0

    def describe(self):
        return (f"{self.dp * self.mp} ranks, mesh dp {self.dp} x mp {self.mp} "
                f"(automatic parallelism: dist.parallelize)")

    def parallelize(self, model, opt, cfg):
        config = {"dp_config": {"sharding_level": 0}}
        if self.mp > 1:
            config["mp_config"] = {"parallelize_plan": llama_plan(cfg.tie_embeddings)}
        return dist.parallelize(model, opt, self.mesh, config)

    def loader(self, dataset, batch_size, shuffle):
        """The global batches of `batch_size` one process would load, each dp rank loading its
        batch_size / dp of them, as dist tensors sharded over dp."""
        local = paddle.io.DataLoader(dataset, batch_size=batch_size // self.dp, shuffle=shuffle,
                                     drop_last=True)
        return dist.shard_dataloader(local, self.mesh, shard_dims="dp")

    def save(self, model, opt, path):
        """Every rank writes its pieces of the model and optimizer states (collective)."""
        dist.save_state_dict({"model": model.state_dict(), "opt": opt.state_dict()}, path)

    def load(self, model, opt, path, seq_len):
        """Loads a save() of any mesh into the model and optimizer (collective). The optimizer
        creates its states, laid out like their parameters, at its first step: one step with
        learning rate 0 on a zero batch makes them, then every state is overwritten."""
        zeros = paddle.zeros([self.dp, seq_len], dtype="int64")
        batch = [dist.Shard(0), dist.Replicate()]
        x = dist.shard_tensor(zeros, self.mesh, batch)
        model.loss(x, x).backward()
        opt.set_lr(0.0)
        opt.step()
        opt.clear_grad(set_to_zero=False)
        osd = opt.state_dict()
        dist.load_state_dict({"model": model.state_dict(), "opt": osd}, path)
        opt.set_state_dict(osd)

    def agree(self, value):
        """Rank 0's `value` (a float) on every rank: what rank 0's clock says decides the
        learning rate and the last step of all ranks."""
        t = paddle.to_tensor([float(value)], dtype="float64")
        dist.broadcast(t, src=0)
        return float(t.numpy()[0])

    def barrier(self):
        dist.barrier()
