"""ParamAttr (Paddle's paddle.ParamAttr): how create_parameter makes a parameter."""

__all__ = ["ParamAttr", "WeightNormParamAttr"]


class ParamAttr:
    """name, initializer, learning_rate (a multiplier of the optimizer's), regularizer,
    trainable (False -> stop_gradient), do_model_average, need_clip (for grad clipping)."""

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=True, need_clip=True):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr: argument 'name' expected a str, got {type(name).__name__}")
        if not isinstance(learning_rate, (float, int)) or isinstance(learning_rate, bool):
            raise TypeError("ParamAttr: argument 'learning_rate' expected a float, got "
                            f"{type(learning_rate).__name__}")
        if not isinstance(trainable, bool):
            raise TypeError(f"ParamAttr: argument 'trainable' expected a bool, got "
                            f"{type(trainable).__name__}")
        if not isinstance(need_clip, bool):
            raise TypeError(f"ParamAttr: argument 'need_clip' expected a bool, got "
                            f"{type(need_clip).__name__}")
        from .initializer.initializer import Initializer
        if initializer is not None and not isinstance(initializer, Initializer):
            raise TypeError("ParamAttr: argument 'initializer' expected an Initializer, got "
                            f"{type(initializer).__name__}")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """None -> default ParamAttr; str -> named; Initializer -> with it; False stays False."""
        from .initializer.initializer import Initializer
        if arg is None:
            return ParamAttr()
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, bool):
            return ParamAttr() if arg else False
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        raise TypeError(f"{type(arg).__name__} cast to ParamAttr is not supported")

    def __repr__(self):
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
                f"learning_rate={self.learning_rate}, trainable={self.trainable})")


class WeightNormParamAttr(ParamAttr):
    """Static graph only: the parameter becomes g * v / ||v|| (norm over every axis but `dim`),
    with v and g the trainable parameters `<name>_v` and `<name>_g` (nn/parameter.py)."""

    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=False, need_clip=True):
        super().__init__(name, initializer, learning_rate, regularizer, trainable,
                         do_model_average, need_clip)
        self.dim = dim
