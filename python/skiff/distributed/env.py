"""Where a rank learns who it is: the launcher's PADDLE_* variables, torchrun's RANK/WORLD_SIZE,
mpirun's OMPI_COMM_WORLD_* / PMI_*, or SLURM's SLURM_PROCID/SLURM_NTASKS, in that order. The
master (the store's host) comes from MASTER_ADDR/MASTER_PORT, else PADDLE_MASTER, else the
first of PADDLE_TRAINER_ENDPOINTS, else SLURM's launch node."""
import os
import socket
from .. import _errors

__all__ = ["ParallelEnv"]

_DEFAULT_PORT = 6170  # Paddle's TCPStore default


def _int_env(*names):
    for n in names:
        v = os.environ.get(n)
        if v not in (None, ""):
            try:
                return int(v)
            except ValueError:
                raise _errors.InvalidArgument(
                    
                    f"init_parallel_env: environment variable {n} expected an "
                    f"integer, got {v!r}") from None
    return None


def _split_endpoint(ep, what):
    host, sep, port = ep.strip().rpartition(":")
    if not sep or not host or not port.isdigit():
        raise _errors.InvalidArgument(f"init_parallel_env: {what} expected 'host:port', "
                                      f"got {ep!r}")
    return host, int(port)


def detect():
    """(rank, world_size, local_rank, master_addr, master_port, endpoints, current_endpoint,
    source) of this process."""
    e = os.environ
    if "PADDLE_TRAINER_ID" in e or "PADDLE_TRAINERS_NUM" in e:
        rank, world, source = _int_env("PADDLE_TRAINER_ID"), _int_env("PADDLE_TRAINERS_NUM"), "paddle"
        local = _int_env("PADDLE_RANK_IN_NODE", "PADDLE_LOCAL_RANK", "LOCAL_RANK")
    elif "RANK" in e and "WORLD_SIZE" in e:
        rank, world, source = _int_env("RANK"), _int_env("WORLD_SIZE"), "torchrun"
        local = _int_env("LOCAL_RANK")
    elif "OMPI_COMM_WORLD_RANK" in e:
        rank, world, source = _int_env("OMPI_COMM_WORLD_RANK"), _int_env("OMPI_COMM_WORLD_SIZE"), "mpirun"
        local = _int_env("OMPI_COMM_WORLD_LOCAL_RANK")
    elif "PMI_RANK" in e:
        rank, world, source = _int_env("PMI_RANK"), _int_env("PMI_SIZE"), "pmi"
        local = _int_env("MPI_LOCALRANKID", "PMI_LOCAL_RANK")
    elif "SLURM_PROCID" in e and "SLURM_NTASKS" in e:
        rank, world, source = _int_env("SLURM_PROCID"), _int_env("SLURM_NTASKS"), "slurm"
        local = _int_env("SLURM_LOCALID")
    else:
        rank, world, local, source = 0, 1, 0, "single"
    rank = 0 if rank is None else rank
    world = 1 if world is None else world
    if world < 1 or not 0 <= rank < world:
        raise _errors.InvalidArgument(
            f"init_parallel_env: expected 0 <= rank < world size "
            f"from the {source} environment, got rank {rank}, world size {world}")
    local = rank if local is None else local

    endpoints = [x for x in e.get("PADDLE_TRAINER_ENDPOINTS", "").split(",") if x]
    current = e.get("PADDLE_CURRENT_ENDPOINT") or (endpoints[rank] if rank < len(endpoints) else "")
    addr, port = e.get("MASTER_ADDR"), _int_env("MASTER_PORT")
    if not addr and e.get("PADDLE_MASTER"):
        addr, port = _split_endpoint(e["PADDLE_MASTER"], "PADDLE_MASTER")
    if not addr and endpoints:
        addr, port = _split_endpoint(endpoints[0], "PADDLE_TRAINER_ENDPOINTS[0]")
    if not addr and source == "slurm":
        addr = e.get("SLURM_LAUNCH_NODE_IPADDR") or _first_slurm_node(e.get("SLURM_JOB_NODELIST", ""))
        if port is None and e.get("SLURM_JOB_ID", "").isdigit():
            port = 20000 + int(e["SLURM_JOB_ID"]) % 20000
    if not addr:
        if world > 1:
            raise _errors.InvalidArgument(
                
                f"init_parallel_env: expected MASTER_ADDR/MASTER_PORT (or "
                f"PADDLE_MASTER / PADDLE_TRAINER_ENDPOINTS) for {world} ranks from the {source} "
                f"environment, got none")
        addr = "127.0.0.1"
    if port is None:
        port = 0 if world == 1 else _DEFAULT_PORT
    return dict(rank=rank, world_size=world, local_rank=local, master_addr=addr,
                master_port=port, endpoints=endpoints, current_endpoint=current, source=source)


def _first_slurm_node(nodelist):
    # "node[01-04],gpu7" -> "node01"; a bracket range takes its first entry.
    first = nodelist.split(",")[0]
    if "[" in first:
        prefix, rest = first.split("[", 1)
        first = prefix + rest.split("-")[0].split(",")[0].rstrip("]")
    return first


def local_address(master_addr, current_endpoint=""):
    """The address peers reach this rank at: the current endpoint's host, loopback when the
    master is loopback, else the local address of the route to the master."""
    if current_endpoint:
        return current_endpoint.rpartition(":")[0]
    if master_addr in ("127.0.0.1", "localhost"):
        return "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((master_addr, 9))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())


class ParallelEnv:
    """Paddle's ParallelEnv: this process's place in the job, read from the environment."""

    def __init__(self):
        d = detect()
        self._rank, self._world_size = d["rank"], d["world_size"]
        self._local_rank = d["local_rank"]
        self._endpoints, self._current = d["endpoints"], d["current_endpoint"]

    @property
    def rank(self):
        return self._rank

    @property
    def world_size(self):
        return self._world_size

    @property
    def local_rank(self):
        return self._local_rank

    @property
    def device_id(self):
        return 0

    @property
    def device_type(self):
        return "cpu"

    @property
    def current_endpoint(self):
        return self._current

    @property
    def trainer_endpoints(self):
        return list(self._endpoints)

    @property
    def nrings(self):
        return 1

    # Paddle's older names.
    nranks = world_size
    dev_id = device_id
