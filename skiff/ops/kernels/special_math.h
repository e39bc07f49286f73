// The special functions of skiff/ops/yaml/special.yaml, written once as templates over the
// floating type R they compute in: the CPU kernels use double, the reference kernels long
// double, so the consistency test compares the same formulas at two precisions (the values are
// checked against torch.special in tests/python/test_special_functions.py).
//
// Methods (Cephes-class, chosen to need no tables of fitted coefficients):
// - digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10 (20 for long double), then
//   the asymptotic series in Bernoulli numbers; x < 0 by reflection on x's fractional part.
// - zeta (Hurwitz, for polygamma): direct sum to q + 9, then Euler-Maclaurin (Cephes' zeta).
// - erfinv: a single-precision start (Giles 2010), refined by Newton steps on erf for |y| <= 1/2
//   and on erfc for the tails, where 1 - |y| is exact and the equation well conditioned.
// - i0/i1 (and the scaled i0e/i1e): the power series, all terms positive, for |x| <= 30 (always
//   for long double up to 700), the asymptotic expansion beyond.
// - gammaincc: the series of P for x < a + 1, Lentz's continued fraction of Q otherwise.
#pragma once

#include <cmath>
#include <limits>

namespace skiff::ops::special {

template <typename R>
inline constexpr R kPi = R(3.14159265358979323846264338327950288L);

template <typename R>
inline constexpr R kEps = std::numeric_limits<R>::epsilon();

template <typename R>
inline R nan() {
  return std::numeric_limits<R>::quiet_NaN();
}

template <typename R>
inline R inf() {
  return std::numeric_limits<R>::infinity();
}

/// log|Gamma(x)| (the reentrant libm form: no global sign is written from the worker threads).
inline double lgamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}
inline long double lgamma(long double x) {
  int sign = 0;
  return ::lgammal_r(x, &sign);
}

template <typename R>
R digamma(R x) {
  if (std::isnan(x)) return x;
  if (x == 0) return std::copysign(inf<R>(), -x);
  if (x < 0) {
    if (x == std::floor(x)) return nan<R>();
    R whole;
    const R frac = std::modf(x, &whole);  // tan(pi frac) is exact where tan(pi x) is not
    return digamma(R(1) - x) - kPi<R> / std::tan(kPi<R> * frac);
  }
  if (std::isinf(x)) return x;
  const R shift = sizeof(R) > sizeof(double) ? R(20) : R(10);
  R acc = 0;
  while (x < shift) {
    acc -= R(1) / x;
    x += R(1);
  }
  const R z = R(1) / (x * x);
  // sum_k B_2k / (2k x^2k) for k = 1..7
  const R tail =
      z *
      (R(1) / 12 -
       z * (R(1) / 120 -
            z * (R(1) / 252 -
                 z * (R(1) / 240 - z * (R(1) / 132 - z * (R(691) / 32760 - z * (R(1) / 12)))))));
  return acc + std::log(x) - R(0.5) / x - tail;
}

/// The Hurwitz zeta function sum_k (k + q)^-s for s > 1 (an integer here: q may be negative).
template <typename R>
R zeta(R s, R q) {
  if (std::isnan(s) || std::isnan(q)) return nan<R>();
  if (q <= 0 && q == std::floor(q)) return inf<R>();
  // (2j)! / B_2j for j = 1..12, from the Bernoulli numbers B_2 = 1/6, ..., B_24.
  static const R kA[] = {R(12.0L),
                         R(-720.0L),
                         R(30240.0L),
                         R(-1209600.0L),
                         R(47900160.0L),
                         R(-1892437580.3183791606L),
                         R(74724249600.0L),
                         R(-2950130727918.1642244L),
                         R(116467828143500.67248L),
                         R(-4597978722407472.6105L),
                         R(181521054019435467.73L),
                         R(-7166165256175667011.3L)};
  R sum = std::pow(q, -s);
  R a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= R(9)) {
    ++i;
    a += R(1);
    b = std::pow(a, -s);
    sum += b;
    if (std::fabs(b / sum) < kEps<R>) return sum;
  }
  const R w = a;
  sum += b * w / (s - R(1)) - R(0.5) * b;
  R fac = 1, k = 0;
  for (const R coef : kA) {
    fac *= s + k;
    b /= w;
    const R t = fac * b / coef;
    sum += t;
    if (std::fabs(t / sum) < kEps<R>) break;
    k += R(1);
    fac *= s + k;
    b /= w;
    k += R(1);
  }
  return sum;
}

/// psi^(n)(x): digamma for n = 0, else (-1)^(n+1) n! zeta(n + 1, x).
template <typename R>
R polygamma(int64_t n, R x) {
  if (n == 0) return digamma(x);
  const R nr = static_cast<R>(n);
  const R factorial = std::exp(lgamma(nr + R(1)));
  return (n % 2 == 1 ? R(1) : R(-1)) * factorial * zeta(nr + R(1), x);
}

template <typename R>
R erfinv(R y) {
  if (std::isnan(y) || y < R(-1) || y > R(1)) return nan<R>();
  if (y == R(1)) return inf<R>();
  if (y == R(-1)) return -inf<R>();
  if (y == 0) return y;
  const R ay = std::fabs(y);
  // Giles' single-precision approximation as the starting point.
  double w = -std::log((1.0 - static_cast<double>(ay)) * (1.0 + static_cast<double>(ay)));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  R x = static_cast<R>(p * static_cast<double>(ay));
  const R half_sqrt_pi = R(0.886226925452758013649083741671L);
  const R rest = R(1) - ay;          // exact for ay >= 1/2
  for (int it = 0; it < 30; ++it) {  // 2 or 3 steps but in the far tails
    const R f = ay <= R(0.5) ? std::erf(x) - ay : rest - std::erfc(x);
    const R step = f * half_sqrt_pi * std::exp(x * x);
    x -= step;
    if (std::fabs(step) <= kEps<R> * std::fabs(x)) break;
  }
  return std::copysign(x, y);
}

/// exp(-|x|) I_nu(x) for nu = 0 or 1 and |x| large: the asymptotic expansion
/// (2 pi x)^-1/2 sum_k prod_j ((2j - 1)^2 - 4 nu^2) / (k! (8x)^k), summed while it decreases.
template <typename R>
R bessel_i_scaled_asymptotic(int nu, R ax) {
  const R mu = R(4 * nu * nu);
  R term = 1, sum = 1;
  for (int k = 1; k < 200; ++k) {
    const R odd = R(2 * k - 1);
    const R next = term * (odd * odd - mu) / (R(8 * k) * ax);
    if (std::fabs(next) >= std::fabs(term)) break;
    term = next;
    sum += term;
    if (std::fabs(term) < kEps<R> * std::fabs(sum)) break;
  }
  return sum / std::sqrt(R(2) * kPi<R> * ax);
}

/// I_nu(x) for nu = 0 or 1 and ax = |x| by the power series sum (x/2)^(2k+nu) / (k! (k+nu)!).
template <typename R>
R bessel_i_series(int nu, R ax) {
  const R q = ax * ax / R(4);
  R term = nu == 0 ? R(1) : ax / R(2);
  R sum = term;
  for (int k = 1; k < 100000; ++k) {
    term *= q / (R(k) * R(k + nu));
    sum += term;
    if (term < kEps<R> * sum) break;
  }
  return sum;
}

template <typename R>
bool bessel_use_series(R ax) {
  return ax <= (sizeof(R) > sizeof(double) ? R(700) : R(30));
}

/// I_nu(x) (scaled: exp(-|x|) I_nu(x)); I1 is odd, I0 even.
template <typename R>
R bessel_i(int nu, R x, bool scaled) {
  if (std::isnan(x)) return x;
  const R ax = std::fabs(x);
  R v;
  if (std::isinf(x)) {
    v = scaled ? R(0) : inf<R>();
  } else if (bessel_use_series(ax)) {
    v = bessel_i_series(nu, ax);
    if (scaled) v *= std::exp(-ax);
  } else {
    v = bessel_i_scaled_asymptotic(nu, ax);
    if (!scaled) v = std::exp(ax + std::log(v));  // e^x alone overflows before I_nu does
  }
  return nu == 1 && x < 0 ? -v : v;
}

/// Q(a, x) = 1 - P(a, x), the regularized upper incomplete gamma function.
template <typename R>
R gammaincc(R a, R x) {
  if (std::isnan(a) || std::isnan(x) || a < 0 || x < 0) return nan<R>();
  if (a == 0) return x > 0 ? R(0) : nan<R>();
  if (x == 0) return R(1);
  if (std::isinf(a)) return std::isinf(x) ? nan<R>() : R(1);
  if (std::isinf(x)) return R(0);
  const R log_front = a * std::log(x) - x - lgamma(a);
  if (x < a + R(1)) {  // P by its series: sum x^n / (a (a+1) ... (a+n))
    R term = R(1) / a, sum = term, ap = a;
    for (int n = 0; n < 100000; ++n) {
      ap += R(1);
      term *= x / ap;
      sum += term;
      if (term < kEps<R> * sum) break;
    }
    return R(1) - sum * std::exp(log_front);
  }
  // Q by its continued fraction (modified Lentz).
  const R tiny = std::numeric_limits<R>::min() / kEps<R>;
  R b = x + R(1) - a, c = R(1) / tiny, d = R(1) / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const R an = -R(i) * (R(i) - a);
    b += R(2);
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = R(1) / d;
    const R delta = d * c;
    h *= delta;
    if (std::fabs(delta - R(1)) < kEps<R>) break;
  }
  return std::exp(log_front) * h;
}

}  // namespace skiff::ops::special
