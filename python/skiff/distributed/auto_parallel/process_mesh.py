"""ProcessMesh (Paddle's paddle.distributed.ProcessMesh): an n-d array of distinct process ids
with named dims (default d0, d1, ...). The C++ ProcessMesh (skiff/dist/process_mesh.h) checks
the same rules when a tensor is placed on it."""
import numpy as np

from ... import _errors

__all__ = ["ProcessMesh"]


class ProcessMesh:
    def __init__(self, mesh=None, dim_names=None, shape=None, process_ids=None):
        if mesh is None:
            if shape is None or process_ids is None:
                raise _errors.InvalidArgument("ProcessMesh: argument 'mesh' expected a list or "
                                              "numpy array of process ids (or shape and "
                                              "process_ids), got None")
            mesh = np.array(process_ids).reshape(shape)
        if not isinstance(mesh, (list, tuple, np.ndarray)):
            raise _errors.InvalidArgument(f"ProcessMesh: argument 'mesh' expected a list or numpy "
                                          f"array of process ids, got {type(mesh).__name__}")
        arr = np.array(mesh)
        if arr.size == 0 or arr.dtype.kind not in "iu":
            raise _errors.InvalidArgument(f"ProcessMesh: argument 'mesh' expected a non-empty "
                                          f"array of int process ids, got {mesh!r}")
        ids = [int(i) for i in arr.flatten()]
        if min(ids) < 0 or len(set(ids)) != len(ids):
            raise _errors.InvalidArgument(f"ProcessMesh: argument 'mesh' expected distinct "
                                          f"non-negative process ids, got {ids}")
        names = [f"d{i}" for i in range(arr.ndim)] if dim_names is None else list(dim_names)
        if len(names) != arr.ndim or len(set(names)) != len(names):
            raise _errors.InvalidArgument(f"ProcessMesh: argument 'dim_names' expected "
                                          f"{arr.ndim} distinct names, got {dim_names!r}")
        self._mesh = arr.astype(np.int64)
        self._dim_names = [str(n) for n in names]

    @property
    def shape(self):
        return list(self._mesh.shape)

    @property
    def process_ids(self):
        return [int(i) for i in self._mesh.flatten()]

    @property
    def dim_names(self):
        return list(self._dim_names)

    @property
    def ndim(self):
        return self._mesh.ndim

    @property
    def mesh(self):
        return self._mesh.copy()

    def get_dim_size(self, dim):
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise _errors.InvalidArgument(f"ProcessMesh.get_dim_size: argument 'dim' expected "
                                              f"one of {self._dim_names}, got {dim!r}")
            dim = self._dim_names.index(dim)
        return self.shape[dim]

    def contains(self, process_id):
        return int(process_id) in self.process_ids

    def __getitem__(self, index):
        if isinstance(index, str):
            return self.get_mesh_with_dim(index)
        sub = self._mesh[index]
        if not isinstance(sub, np.ndarray) or sub.ndim == 0:
            return ProcessMesh([int(sub)], ["d0"])
        idx = index if isinstance(index, tuple) else (index,)
        kept = [n for i, n in enumerate(self._dim_names)
                if not (i < len(idx) and isinstance(idx[i], int))]
        return ProcessMesh(sub, kept)

    def get_mesh_with_dim(self, dim_name, index=None):
        if dim_name not in self._dim_names:
            raise _errors.InvalidArgument(f"ProcessMesh.get_mesh_with_dim: argument 'dim_name' "
                                          f"expected one of {self._dim_names}, got {dim_name!r}")
        axis = self._dim_names.index(dim_name)
        order = [axis] + [i for i in range(self.ndim) if i != axis]
        moved = ProcessMesh(self._mesh.transpose(order), [self._dim_names[i] for i in order])
        return moved if index is None else moved[index]

    def _to_c(self):
        return (self.shape, self.process_ids, self.dim_names)

    def __eq__(self, other):
        return (isinstance(other, ProcessMesh) and self.shape == other.shape and
                self.process_ids == other.process_ids and self.dim_names == other.dim_names)

    def __hash__(self):
        return hash((tuple(self.shape), tuple(self.process_ids), tuple(self.dim_names)))

    def __repr__(self):
        return (f"{{shape: {self.shape}, process_ids: {self.process_ids}, "
                f"dim_names: {self.dim_names}}}")
