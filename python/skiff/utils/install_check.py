"""paddle.utils.run_check(): trains a small network for a few steps on each kind of device found
(eagerly, then as a to_static program) and prints what Paddle's check prints."""
import numpy as np


def _train_steps(place):
    """Four SGD steps of a linear layer on `place`, eager and captured; True when both lower
    the loss and agree."""
    from .. import jit, nn, optimizer, seed, to_tensor
    seed(2024)
    x = to_tensor(np.random.RandomState(0).rand(8, 4).astype("float32"), place=place)
    y = to_tensor(np.arange(8, dtype="float32").reshape(8, 1), place=place)
    losses = []
    for static in (False, True):
        seed(2024)
        net = nn.Linear(4, 1)
        net.to(place)
        opt = optimizer.SGD(learning_rate=0.05, parameters=net.parameters())

        def step(a, b):
            loss = ((net(a) - b) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        run = jit.to_static(step) if static else step
        losses.append([float(run(x, y)) for _ in range(4)])
    eager, captured = losses
    return eager[-1] < eager[0] and np.allclose(eager, captured, rtol=1e-4, atol=1e-5)


def run_check():
    """Checks the installation: prints 'PaddlePaddle works well on 1 CPU.' per device kind that
    trains, then 'PaddlePaddle is installed successfully! ...'. A failure raises."""
    from .. import device
    print("Running verify PaddlePaddle program ... ")
    places = [("cpu", "CPU")]
    if device.is_compiled_with_cuda():
        places.append(("gpu:0", "GPU"))
    for kind in device.get_all_custom_device_type():
        places.append((f"{kind}:0", kind))
    for place, label in places:
        if not _train_steps(place):
            raise RuntimeError(f"(Fatal) run_check: a small network did not train on {place}: "
                               f"this installation of Skiff is broken")
        print(f"PaddlePaddle works well on 1 {label}.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle "
          "now.")
