// Whether ops record autograd history on this thread (Paddle's no_grad / enable_grad).
#pragma once

namespace skiff::autograd {

bool grad_enabled();
void set_grad_enabled(bool enabled);

/// Sets grad mode for a scope and restores the previous mode on exit.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled);
  ~GradModeGuard();
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

/// paddle.no_grad(): no history is recorded inside the scope.
class NoGradGuard : public GradModeGuard {
 public:
  NoGradGuard() : GradModeGuard(false) {}
};

}  // namespace skiff::autograd
