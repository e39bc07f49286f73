"""Process groups (Paddle's communication/group.py and parallel.py): the job's store, the global
group (id 0) made by init_parallel_env, and sub-groups from new_group. Every rank must call
new_group with the same ranks in the same order (the group id is a counter, as in Paddle);
ranks outside the group get a Group whose rank is -1 and that takes part in nothing."""
import atexit
import datetime
import os

from .. import _C
from . import env as _env
from .. import _errors

__all__ = ["Group", "init_parallel_env", "is_initialized", "new_group", "get_group",
           "destroy_process_group", "get_rank", "get_world_size", "get_backend", "is_available"]

_DEFAULT_TIMEOUT = 1800.0  # seconds, Paddle's default for collectives


class _State:
    store = None
    global_group = None
    groups = {}
    next_gid = 1
    rank = 0
    world_size = 1
    hostname = "127.0.0.1"
    timeout = _DEFAULT_TIMEOUT


_state = _State()


class Group:
    """A communication group: `rank` is this process's index in it (-1 outside), `ranks` the
    global ranks of its members."""

    def __init__(self, rank_in_group, id, ranks, pg=None, name=None):
        self._rank_in_group = rank_in_group
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name or ("_default_pg" if id == 0 else f"_pg_{id}")
        self._pending = []

    @property
    def rank(self):
        return self._rank_in_group

    @property
    def ranks(self):
        return list(self._ranks)

    @property
    def nranks(self):
        return len(self._ranks)

    world_size = nranks

    @property
    def id(self):
        return self._id

    @property
    def name(self):
        return self._name

    @property
    def process_group(self):
        return self._pg

    @property
    def backend(self):
        return "gloo"

    def is_member(self):
        return self._rank_in_group >= 0

    def get_group_rank(self, rank):
        return self._ranks.index(rank) if rank in self._ranks else -1

    def __repr__(self):
        return (f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: "
                f"{', '.join(map(str, self._ranks))}; name: {self.name}")


def _seconds(timeout, what):
    if isinstance(timeout, datetime.timedelta):
        timeout = timeout.total_seconds()
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
        raise _errors.InvalidArgument(f"{what}: argument 'timeout' expected a positive "
                                      f"number of seconds or a datetime.timedelta, got {timeout!r}")
    return float(timeout)


def _env_timeout():
    v = os.environ.get("SKIFF_COMM_TIMEOUT") or os.environ.get("PADDLE_COMM_TIMEOUT")
    return _seconds(float(v), "SKIFF_COMM_TIMEOUT") if v else _DEFAULT_TIMEOUT


def is_available():
    return True


def is_initialized():
    return _state.global_group is not None


def _require_init(what):
    if _state.global_group is None:
        raise _errors.PreconditionNotMet(
            f"{what}: expected an initialized parallel "
            f"environment (call paddle.distributed.init_parallel_env() first)")


def init_parallel_env():
    """Joins the job: connects to (or, on rank 0, hosts) the TCP store at the master address
    and builds the global gloo group. Returns the global Group; a second call returns it again."""
    if _state.global_group is not None:
        return _state.global_group
    d = _env.detect()
    rank, world = d["rank"], d["world_size"]
    timeout = _env_timeout()
    # The launcher hosts the store itself (it outlives any rank); otherwise rank 0 does.
    hosted = os.environ.get("SKIFF_STORE_HOSTED") == "1"
    is_master = rank == 0 and not hosted
    store = _C.comm.TCPStore(d["master_addr"], d["master_port"], is_master=is_master,
                             timeout=min(timeout, 900.0))
    store.register_rank(rank)
    hostname = _env.local_address(d["master_addr"], d["current_endpoint"])
    pg = _C.comm.ProcessGroupGloo(store, rank, list(range(world)), 0, "_default_pg", hostname,
                                  timeout)
    _state.store, _state.rank, _state.world_size = store, rank, world
    _state.hostname, _state.timeout = hostname, timeout
    _state.global_group = Group(rank, 0, list(range(world)), pg, "_default_pg")
    # Reshard (C++, skiff/dist) makes its own per-mesh-dim groups over the same store.
    _C.dist.set_comm_context(store, rank, world, hostname, timeout)
    _state.groups = {0: _state.global_group}
    _state.next_gid = 1
    return _state.global_group


def _global_group():
    _require_init("collective")
    return _state.global_group


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0):
    """A group over `ranks` (global ranks, any order and subset; None = every rank). Every rank
    calls it; members get a working group, the others a Group with rank -1."""
    _require_init("new_group")
    if backend not in (None, "gloo"):
        raise _errors.InvalidArgument(f"new_group: argument 'backend' expected 'gloo' or "
                                      f"None on CPU, got {backend!r}")
    ranks = list(range(_state.world_size)) if ranks is None else [int(r) for r in ranks]
    bad = [r for r in ranks if not 0 <= r < _state.world_size]
    if not ranks or bad or len(set(ranks)) != len(ranks):
        raise _errors.InvalidArgument(f"new_group: argument 'ranks' expected distinct "
                                      f"ranks in [0, {_state.world_size}), got {ranks}")
    seconds = _state.timeout if timeout is None else _seconds(timeout, "new_group")
    gid = _state.next_gid
    _state.next_gid += 1
    pg = None
    rank_in_group = ranks.index(_state.rank) if _state.rank in ranks else -1
    if rank_in_group >= 0:
        pg = _C.comm.ProcessGroupGloo(_state.store, rank_in_group, ranks, gid, f"_pg_{gid}",
                                      _state.hostname, seconds)
    group = Group(rank_in_group, gid, ranks, pg)
    _state.groups[gid] = group
    return group


def get_group(id=0):
    _require_init("get_group")
    return _state.groups.get(id)


def destroy_process_group(group=None):
    """Destroys `group`, or with None every group and the connection to the store."""
    if group is not None and group.id != 0:
        _state.groups.pop(group.id, None)
        group._pg = None
        return
    if _state.global_group is None:
        return
    for g in _state.groups.values():
        for t in g._pending:
            try:
                t.wait()
            except Exception:
                pass
        g._pg = None
    store = _state.store
    _state.groups, _state.global_group, _state.store = {}, None, None
    _C.dist.clear_comm_context()
    if store is not None:
        try:
            store.leave()
        except Exception:
            pass


def get_rank(group=None):
    if group is not None:
        return group.rank
    if _state.global_group is not None:
        return _state.rank
    return _env.detect()["rank"]


def get_world_size(group=None):
    if group is not None:
        return group.nranks
    if _state.global_group is not None:
        return _state.world_size
    return _env.detect()["world_size"]


def get_backend(group=None):
    return "gloo"


atexit.register(destroy_process_group)
