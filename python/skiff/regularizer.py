"""Weight-decay regularizers (Paddle's paddle.regularizer): L2Decay adds coeff * param to the
gradient, L1Decay adds coeff * sign(param). Set per parameter (ParamAttr(regularizer=...)) or
as an optimizer's weight_decay; the parameter's own wins."""

__all__ = ["L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    def __init__(self, coeff=0.0):
        if isinstance(coeff, bool) or not isinstance(coeff, (int, float)):
            raise TypeError(f"{type(self).__name__}: argument 'coeff' expected a float, got "
                            f"{type(coeff).__name__}")
        self._coeff = float(coeff)

    @property
    def coeff(self):
        return self._coeff

    def __str__(self):
        return f"{type(self).__name__}, coeff={self._coeff:f}"


class L2Decay(WeightDecayRegularizer):
    pass


class L1Decay(WeightDecayRegularizer):
    pass
