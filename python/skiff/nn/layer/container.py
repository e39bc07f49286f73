"""Containers: Sequential, LayerList, LayerDict, ParameterList, ParameterDict (Paddle's)."""
import collections

from ..parameter import EagerParamBase
from .layers import Layer

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict"]


class Sequential(Layer):
    """Runs its sublayers in order. Sequential(l1, l2) or Sequential(('name', l1), ...)."""

    def __init__(self, *layers):
        super().__init__()
        if len(layers) > 0 and isinstance(layers[0], (list, tuple)):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        elif len(layers) == 1 and isinstance(layers[0], collections.OrderedDict):
            for name, layer in layers[0].items():
                self.add_sublayer(name, layer)
        else:
            for idx, layer in enumerate(layers):
                self.add_sublayer(str(idx), layer)

    def __getitem__(self, name):
        if isinstance(name, slice):
            return self.__class__(*(list(self._sub_layers.values())[name]))
        if isinstance(name, str):
            return self._sub_layers[name]
        n = len(self._sub_layers)
        if name >= n or name < -n:
            raise IndexError(f"index {name} is out of range")
        if name < 0:
            name += n
        return list(self._sub_layers.values())[name]

    def __setitem__(self, name, layer):
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential: expected a Layer, got {type(layer).__name__}")
        setattr(self, str(name), layer)

    def __delitem__(self, name):
        name = str(name)
        if name not in self._sub_layers:
            raise KeyError(name)
        del self._sub_layers[name]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, layer):
        self.add_sublayer(str(len(self)), layer)
        return self

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input


class LayerList(Layer):
    """A list of sublayers, registered as `0`, `1`, ..."""

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            for idx, layer in enumerate(sublayers):
                self.add_sublayer(str(idx), layer)

    def _get_abs_idx(self, idx):
        n = len(self)
        if isinstance(idx, int):
            if not -n <= idx < n:
                raise IndexError(f"index {idx} is out of range, should be an integer in range "
                                 f"[{-n}, {n})")
            if idx < 0:
                idx += n
        return idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._sub_layers.values())[idx])
        idx = self._get_abs_idx(idx)
        return self._sub_layers[str(idx)]

    def __setitem__(self, idx, sublayer):
        idx = self._get_abs_idx(idx)
        setattr(self, str(idx), sublayer)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._sub_layers))[idx]:
                del self._sub_layers[str(k)]
        else:
            idx = self._get_abs_idx(idx)
            del self._sub_layers[str(idx)]
        layers = list(self._sub_layers.values())
        self._sub_layers = collections.OrderedDict((str(i), v) for i, v in enumerate(layers))

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, sublayer):
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index, sublayer):
        n = len(self._sub_layers)
        if not -n <= index <= n:
            raise IndexError(f"index {index} is out of range for LayerList of length {n}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._sub_layers[str(i)] = self._sub_layers[str(i - 1)]
        self._sub_layers[str(index)] = sublayer

    def extend(self, sublayers):
        offset = len(self)
        for i, sublayer in enumerate(sublayers):
            self.add_sublayer(str(offset + i), sublayer)
        return self


class LayerDict(Layer):
    """An ordered dict of sublayers."""

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, sublayer):
        self.add_sublayer(key, sublayer)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def clear(self):
        self._sub_layers.clear()

    def pop(self, key):
        v = self._sub_layers[key]
        del self._sub_layers[key]
        return v

    def keys(self):
        return self._sub_layers.keys()

    def items(self):
        return self._sub_layers.items()

    def values(self):
        return self._sub_layers.values()

    def update(self, sublayers):
        if isinstance(sublayers, (collections.OrderedDict, LayerDict, dict)):
            for key, layer in sublayers.items():
                self.add_sublayer(key, layer)
        else:
            for i, kv in enumerate(sublayers):
                if len(kv) != 2:
                    raise ValueError(f"LayerDict.update: element {i} should have length 2, got "
                                     f"{len(kv)}")
                self.add_sublayer(kv[0], kv[1])


class ParameterList(Layer):
    """A list of parameters, registered as `0`, `1`, ..."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            for idx, param in enumerate(parameters):
                if not isinstance(param, EagerParamBase):
                    raise TypeError(f"ParameterList: element {idx} is not a Parameter, got "
                                    f"{type(param).__name__}")
                self.add_parameter(str(idx), param)

    def __getitem__(self, idx):
        n = len(self._parameters)
        if idx < 0:
            idx += n
        return self._parameters[str(idx)]

    def __setitem__(self, idx, param):
        setattr(self, str(idx), param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        self.add_parameter(str(len(self._parameters)), parameter)
        return self


class ParameterDict(Layer):
    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            items = parameters.items() if hasattr(parameters, "items") else parameters
            for k, v in items:
                self.add_parameter(k, v)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, param):
        self.add_parameter(key, param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def keys(self):
        return self._parameters.keys()

    def items(self):
        return self._parameters.items()

    def values(self):
        return self._parameters.values()
