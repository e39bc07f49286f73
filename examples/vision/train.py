"""Trains a small ResNet on procedurally drawn shapes with paddle.Model.fit, the way Paddle's
high-level tutorials do: paddle.vision transforms, Model.prepare/fit/evaluate, the progress
bar, EarlyStopping (best model kept), checkpoints every epoch, a VisualDL-style scalar log with
a PNG of the curves, and a time budget (a user Callback).

    PYTHONPATH=python /usr/bin/python3 examples/vision/train.py            # about 4 minutes
    ... --arch resnet18 --epochs 10 --to-static --max-minutes 2 --help

Outputs in --out (runs/vision): ckpt/<epoch>.pdparams, ckpt/best_model.pdparams,
ckpt/final.pdparams, log/scalars.csv, log/scalars.png, and inference/model.pdmodel
(Model.save(training=False)).
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from omp_threads import choose_threads  # noqa: E402  (before skiff: sets OpenMP's threads)

_THREADS_NOTE = choose_threads(sys.argv[1:])

import skiff as paddle  # noqa: E402
from skiff import nn  # noqa: E402
from skiff.static import InputSpec  # noqa: E402
from skiff.vision import transforms as T  # noqa: E402
from skiff.vision.models.resnet import BasicBlock  # noqa: E402

from shapes import CLASSES, Shapes  # noqa: E402


class SmallResNet(nn.Layer):
    """A CIFAR-style ResNet: a 3x3 stem, three stages of BasicBlocks (widths w, 2w, 4w; the
    last two stride 2), global average pooling, a Linear classifier."""

    def __init__(self, num_classes, width=16, blocks=(1, 1, 1)):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2D(3, width, 3, padding=1, bias_attr=False),
                                  nn.BatchNorm2D(width), nn.ReLU())
        stages, cin = [], width
        for i, n in enumerate(blocks):
            cout, stride = width * 2 ** i, 1 if i == 0 else 2
            for j in range(n):
                s = stride if j == 0 else 1
                down = None
                if s != 1 or cin != cout:
                    down = nn.Sequential(nn.Conv2D(cin, cout, 1, stride=s, bias_attr=False),
                                         nn.BatchNorm2D(cout))
                stages.append(BasicBlock(cin, cout, s, down))
                cin = cout
        self.stages = nn.Sequential(*stages)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = self.pool(self.stages(self.stem(x)))
        return self.fc(paddle.flatten(x, 1))


class TimeBudget(paddle.callbacks.Callback):
    """Stops training after the epoch in which the budget ran out."""

    def __init__(self, minutes):
        super().__init__()
        self.seconds = minutes * 60

    def on_train_begin(self, logs=None):
        self.start = time.time()

    def on_epoch_end(self, epoch, logs=None):
        if time.time() - self.start > self.seconds:
            print(f"time budget of {self.seconds / 60:.1f} min reached after epoch {epoch + 1}")
            self.model.stop_training = True


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="runs/vision")
    p.add_argument("--arch", default="small", choices=["small", "resnet18"],
                   help="small: a 3-stage CIFAR-style ResNet (~80K parameters); resnet18: "
                        "paddle.vision.models.resnet18")
    p.add_argument("--image-size", type=int, default=32)
    p.add_argument("--train-size", type=int, default=6000)
    p.add_argument("--eval-size", type=int, default=1200)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--lr", type=float, default=0.003)
    p.add_argument("--patience", type=int, default=3, help="EarlyStopping patience (epochs)")
    p.add_argument("--max-minutes", type=float, default=4.0)
    p.add_argument("--to-static", action="store_true",
                   help="give paddle.Model InputSpecs: the train step runs as one program")
    p.add_argument("--verbose", type=int, default=1, choices=[0, 1, 2])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", default="auto",
                   help="compute threads: a number, or auto (all cores unless the machine is "
                        "busy); OMP_NUM_THREADS wins")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    paddle.seed(args.seed)
    t0 = time.time()
    norm = T.Normalize(mean=[127.5] * 3, std=[127.5] * 3, data_format="HWC")
    train_tf = T.Compose([T.RandomHorizontalFlip(), norm, T.Transpose()])
    eval_tf = T.Compose([norm, T.Transpose()])
    train = Shapes(args.train_size, args.image_size, seed=args.seed, transform=train_tf)
    val = Shapes(args.eval_size, args.image_size, seed=args.seed + 1, transform=eval_tf)
    test = Shapes(args.eval_size, args.image_size, seed=args.seed + 2, transform=eval_tf)
    print(f"data: {len(train)} train / {len(val)} val / {len(test)} test images of "
          f"{args.image_size}x{args.image_size}, {len(CLASSES)} classes ({', '.join(CLASSES)}), "
          f"drawn in {time.time() - t0:.1f}s; threads: {_THREADS_NOTE}")

    if args.arch == "small":
        net = SmallResNet(len(CLASSES))
    else:
        net = paddle.vision.models.resnet18(num_classes=len(CLASSES))
    inputs = labels = None
    if args.to_static:
        inputs = [InputSpec([None, 3, args.image_size, args.image_size], "float32", "image")]
        labels = [InputSpec([None, 1], "int64", "label")]
    model = paddle.Model(net, inputs, labels)
    steps = (len(train) + args.batch_size - 1) // args.batch_size
    sched = paddle.optimizer.lr.CosineAnnealingDecay(args.lr, T_max=steps * args.epochs)
    opt = paddle.optimizer.AdamW(sched, parameters=net.parameters(), weight_decay=1e-4)
    model.prepare(opt, nn.CrossEntropyLoss(), paddle.metric.Accuracy(topk=(1, 2)))
    info = model.summary((1, 3, args.image_size, args.image_size))
    print(f"model: {args.arch}, {info['total_params']:,} parameters"
          f"{', train step through to_static' if args.to_static else ''}")

    ckpt = os.path.join(args.out, "ckpt")
    callbacks = [
        paddle.callbacks.EarlyStopping(monitor="acc_top1", mode="max", patience=args.patience,
                                       save_best_model=True),
        paddle.callbacks.VisualDL(log_dir=os.path.join(args.out, "log")),
        TimeBudget(args.max_minutes),
    ]
    t_fit = time.time()
    model.fit(train, val, batch_size=args.batch_size, epochs=args.epochs, log_freq=10,
              save_dir=ckpt, verbose=args.verbose, callbacks=callbacks)
    fit_s = time.time() - t_fit

    best = os.path.join(ckpt, "best_model")
    if os.path.exists(best + ".pdparams"):
        model.load(best)
    res = model.evaluate(test, batch_size=256, verbose=0)
    model.save(os.path.join(args.out, "inference", "model"), training=False)
    print(f"trained {fit_s / 60:.1f} min; best checkpoint on held-out test images: "
          f"top-1 accuracy {res['acc_top1']:.3f}, top-2 {res['acc_top2']:.3f} "
          f"(chance {1 / len(CLASSES):.3f})")
    print(f"curves: {os.path.join(args.out, 'log', 'scalars.png')}; checkpoints: {ckpt}")
    return res


if __name__ == "__main__":
    main()
