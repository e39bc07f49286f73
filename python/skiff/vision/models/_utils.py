"""Shared pieces of paddle.vision.models: channel rounding and pretrained weights.

No downloads: `pretrained=True` is an error that names the file Paddle would fetch; a path to
a Paddle `.pdparams` file (pretrained='dir/resnet18.pdparams') loads it, since the state_dict
names and shapes of these models equal Paddle's."""
import os
from ... import _errors

__all__ = []


def _make_divisible(v, divisor=8, min_value=None):
    """v rounded to a multiple of divisor, never more than 10% below v."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def load_pretrained(model, arch, pretrained, weights_file=None):
    """Loads the weights `pretrained` names (a path) into model; False/None does nothing."""
    if pretrained is None or pretrained is False:
        return model
    if pretrained is True:
        hint = f" ({weights_file})" if weights_file else ""
        raise _errors.InvalidArgument(
            
            f"{arch}: pretrained=True would download Paddle's ImageNet weights{hint}, and this "
            f"build does not download; put the .pdparams file on disk and pass its path: "
            f"{arch}(pretrained='path/to/{weights_file or arch + '.pdparams'}')")
    if not isinstance(pretrained, (str, os.PathLike)):
        raise _errors.InvalidType(f"{arch}: argument 'pretrained' expected a bool or a path to a "
                                  f".pdparams file, got {type(pretrained).__name__}")
    path = os.fspath(pretrained)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{arch}: pretrained weights file {path!r} does not exist")
    from ... import load
    state = load(path)
    expected = model.state_dict()
    missing = [k for k in expected if k not in state]
    bad = [f"{k}: file {list(state[k].shape)} vs model {list(v.shape)}"
           for k, v in expected.items() if k in state and
           list(getattr(state[k], "shape", [])) != list(v.shape)]
    if missing or bad:
        raise _errors.InvalidArgument(f"{arch}: weights file {path!r} does not fit the model: "
                                      f"missing {missing[:5]}{'...' if len(missing) > 5 else ''}"
                                      f"{'; shape mismatch ' + '; '.join(bad[:5]) if bad else ''}")
    model.set_state_dict(state)
    return model
