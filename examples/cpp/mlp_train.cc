// Trains an MLP classifier with the C++ front end: a three-arm spiral (3 classes, 2-D points
// with noise; not linearly separable), model Linear-ReLU-Linear-ReLU-Linear, CrossEntropyLoss,
// AdamW with linear warm-up then cosine decay, minibatches shuffled with randperm. Prints loss
// and accuracy, saves a checkpoint, reloads it into a fresh model and checks the reloaded model
// gives the same test accuracy. Exits 1 if the test accuracy is below --min-accuracy.
//
//   build/bin/mlp_train [--epochs 40] [--min-accuracy 0.95] [--threads 1]
//                       [--checkpoint /tmp/mlp.safetensors]
// The model is tiny (17K parameters, batches of 64): one thread runs it fastest; a parallel
// region per op would cost more than the op.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "skiff/core/parallel.h"
#include "skiff/skiff.h"

namespace {

using namespace skiff;

struct Dataset {
  Tensor x, y;  // [N, 2] float32, [N] int64
};

// Points along three spiral arms, one class per arm.
Dataset make_spiral(int per_class, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> noise(0.0f, 0.25f);
  std::vector<float> x;
  std::vector<int64_t> y;
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < per_class; ++i) {
      const float r = static_cast<float>(i) / per_class;
      const float t = 4.0f * c + 4.0f * r + noise(rng);
      x.push_back(r * std::sin(t));
      x.push_back(r * std::cos(t));
      y.push_back(c);
    }
  }
  const int64_t n = static_cast<int64_t>(y.size());
  return {to_tensor(x, {n, 2}), to_tensor(y, {n})};
}

std::shared_ptr<nn::Sequential> make_model() {
  return std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Layer>>{
      std::make_shared<nn::Linear>(2, 128), std::make_shared<nn::ReLU>(),
      std::make_shared<nn::Linear>(128, 128), std::make_shared<nn::ReLU>(),
      std::make_shared<nn::Linear>(128, 3)});
}

double accuracy(nn::Layer& model, const Dataset& d) {
  autograd::NoGradGuard no_grad;
  model.eval();
  const Tensor pred = argmax(model(d.x), Scalar(int64_t{1}));
  const double correct = sum(cast(equal(pred, d.y), DType::kFloat64)).item<double>();
  model.train();
  return correct / static_cast<double>(d.y.numel());
}

}  // namespace

int main(int argc, char** argv) {
  int epochs = 40;
  double min_accuracy = 0.95;
  int threads = 1;
  std::string checkpoint = "/tmp/skiff_mlp_train.safetensors";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--epochs"))
      epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--min-accuracy"))
      min_accuracy = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--checkpoint"))
      checkpoint = argv[i + 1];
  }
  set_num_threads(threads);
  manual_seed_all(42);
  const Dataset train = make_spiral(1000, 1), test = make_spiral(300, 2);
  const int64_t n = train.y.numel(), batch = 64;
  const int64_t steps_per_epoch = (n + batch - 1) / batch;

  auto model = make_model();
  auto schedule = std::make_shared<optimizer::lr::LinearWarmup>(
      std::make_shared<optimizer::lr::CosineAnnealingDecay>(0.01, epochs * steps_per_epoch),
      steps_per_epoch, 0.0, 0.01);
  // No weight decay on biases (Paddle's apply_decay_param_fun).
  optimizer::AdamW opt(schedule, model->named_parameters(), {}, 1e-4, [](const std::string& name) {
    return name.find("bias") == std::string::npos;
  });
  nn::CrossEntropyLoss loss_fn;

  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const Tensor order = randperm(n);
    double loss_sum = 0;
    for (int64_t s = 0; s < steps_per_epoch; ++s) {
      const int64_t b = s * batch, e = std::min(n, b + batch);
      const Tensor idx = slice(order, {0}, {b}, {e});
      const Tensor loss =
          loss_fn.forward(model->forward(index_select(train.x, idx)), index_select(train.y, idx));
      autograd::backward({loss});
      opt.step();
      opt.clear_grad(false);
      schedule->step();
      loss_sum += loss.item<float>();
    }
    if (epoch == 1 || epoch % 10 == 0 || epoch == epochs) {
      std::printf("epoch %3d  loss %.4f  train acc %.4f  lr %.5f\n", epoch,
                  loss_sum / steps_per_epoch, accuracy(*model, train), opt.get_lr());
    }
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double test_acc = accuracy(*model, test);
  std::printf("test accuracy %.4f (%d epochs, %.2f s)\n", test_acc, epochs, secs);

  // Checkpoint round trip: model and optimizer state into one file, back into fresh objects.
  StateDict state = model->state_dict();
  state.merge(opt.state_dict(), "optimizer.");
  save(state, checkpoint, {{"format", "skiff-mlp-example"}});
  const StateDict loaded = load(checkpoint);
  StateDict model_state;
  for (const auto& [k, v] : loaded) {
    if (k.rfind("optimizer.", 0) != 0) model_state.set(k, v);
  }
  auto fresh = make_model();
  fresh->set_state_dict(model_state);
  optimizer::AdamW fresh_opt(schedule, fresh->named_parameters());
  fresh_opt.set_state_dict(loaded.with_prefix("optimizer."));
  const double reloaded_acc = accuracy(*fresh, test);
  std::printf("reloaded from %s: test accuracy %.4f\n", checkpoint.c_str(), reloaded_acc);
  if (reloaded_acc != test_acc) {
    std::printf("FAIL: the reloaded model differs\n");
    return 1;
  }
  if (test_acc < min_accuracy) {
    std::printf("FAIL: test accuracy %.4f below %.4f\n", test_acc, min_accuracy);
    return 1;
  }
  return 0;
}
