#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""TensorFlow's debugger tutorial (debug_mnist_v2) in PyTorch, recorded by NaNscope.

A multi-layer perceptron learns synthetic digits (nothing is downloaded). The loss is a
hand-written cross-entropy: the log of a softmax. Once the logits grow, the softmax rounds some
probabilities to exactly zero, their log is -inf, and the loss and then every weight become NaN:
accuracy stays near chance. --fix uses torch.nn.functional.cross_entropy on the logits instead.

    python3 debug_mnist_torch.py --dump_dir /tmp/torch-logdir
    nanscope-report /tmp/torch-logdir          # or: nanscope /tmp/torch-logdir

With --stop_at_first_nonfinite the run stops at the log that makes the first -inf (named when
the multiplication turns it into NaN), with the record up to it on disk, and exits with status 3.
"""

import argparse
import sys

import torch
import torch.nn.functional as F
from torch import nn

IMAGE_SIZE = 28
CLASSES = 10
# The exit status of a run stopped at its first non-finite value (as nanscope-demo-mlp's).
EXIT_STOPPED = 3


def digit_prototypes(generator):
    """One pattern of short strokes per digit."""
    prototypes = torch.zeros(CLASSES, IMAGE_SIZE, IMAGE_SIZE)
    for digit in range(CLASSES):
        strokes = torch.randint(4, IMAGE_SIZE - 4, (6, 2), generator=generator)
        for (r, c) in strokes.tolist():
            prototypes[digit, r - 3:r + 3, c - 1:c + 1] = 1.0
    return prototypes


def synthetic_digits(prototypes, count, generator):
    """Images of the digits' patterns, each randomly shifted and noisy, and their labels."""
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    images = prototypes[labels]
    shifts = torch.randint(-2, 3, (count, 2), generator=generator)
    for i, (dr, dc) in enumerate(shifts.tolist()):
        images[i] = torch.roll(images[i], shifts=(dr, dc), dims=(0, 1))
    images = images + 0.1 * torch.rand(images.shape, generator=generator)
    return images.reshape(count, -1).clamp(0.0, 1.0), labels


class MLP(nn.Module):
    def __init__(self, hidden=500):
        super().__init__()
        self.hidden = nn.Linear(IMAGE_SIZE * IMAGE_SIZE, hidden)
        self.logits = nn.Linear(hidden, CLASSES)

    def forward(self, x):
        return self.logits(torch.relu(self.hidden(x)))


def cross_entropy(logits, labels, fix):
    if fix:
        return F.cross_entropy(logits, labels)
    probs = torch.softmax(logits, dim=1)
    one_hot = F.one_hot(labels, CLASSES).to(probs.dtype)
    # The bug: log(0) is -inf once a probability underflows, and 0 * -inf is NaN.
    return -(one_hot * torch.log(probs)).sum(dim=1).mean()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump_dir", default="", help="record into this logdir (tfdbg2)")
    parser.add_argument("--dump_tensor_debug_mode", default="FULL_HEALTH",
                        help="NO_TENSOR, CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH, SHAPE or "
                             "FULL_TENSOR")
    parser.add_argument("--dump_circular_buffer_size", type=int, default=-1,
                        help="keep only the last N executions (<= 0: all of them)")
    parser.add_argument("--fix", action="store_true", help="use a numerically stable loss")
    parser.add_argument("--stop_at_first_nonfinite", action="store_true",
                        help="stop at the first NaN or inf that is not intended (exit status 3)")
    parser.add_argument("--max_steps", type=int, default=10)
    parser.add_argument("--train_batch_size", type=int, default=100)
    parser.add_argument("--learning_rate", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    flags = parser.parse_args(argv)
    if flags.max_steps < 0 or flags.train_batch_size < 1 or not flags.learning_rate > 0:
        parser.error("--max_steps must be >= 0, --train_batch_size >= 1, --learning_rate > 0")

    torch.manual_seed(flags.seed)
    generator = torch.Generator().manual_seed(flags.seed)
    prototypes = digit_prototypes(generator)
    train_x, train_y = synthetic_digits(prototypes, 2000, generator)
    test_x, test_y = synthetic_digits(prototypes, 500, generator)
    model = MLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=flags.learning_rate)

    stopped = ()  # the error a stopped recording raises, when recording
    if flags.dump_dir:
        import nanscope.torch
        stopped = nanscope.torch.NonFiniteError
        nanscope.torch.enable_dump_debug_info(
            flags.dump_dir, tensor_debug_mode=flags.dump_tensor_debug_mode,
            circular_buffer_size=flags.dump_circular_buffer_size,
            stop_at_first_nonfinite=flags.stop_at_first_nonfinite)
    elif flags.stop_at_first_nonfinite:
        parser.error("--stop_at_first_nonfinite needs --dump_dir")

    try:
        train(flags, model, optimizer, (train_x, train_y), (test_x, test_y))
    except stopped as e:
        print(f"{parser.prog}: {e}", file=sys.stderr)
        return EXIT_STOPPED

    if flags.dump_dir:
        nanscope.torch.disable_dump_debug_info()
        print(f"Recorded into {flags.dump_dir}: open it with nanscope or nanscope-report")
    return 0


def train(flags, model, optimizer, train_data, test_data):
    train_x, train_y = train_data
    test_x, test_y = test_data
    for step in range(flags.max_steps):
        begin = (step * flags.train_batch_size) % len(train_x)
        x = train_x[begin:begin + flags.train_batch_size]
        y = train_y[begin:begin + flags.train_batch_size]
        loss = cross_entropy(model(x), y, flags.fix)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            accuracy = (model(test_x).argmax(dim=1) == test_y).float().mean().item()
        print(f"Step {step}: loss {loss.item():.4f}, accuracy {accuracy:.3f}")


if __name__ == "__main__":
    sys.exit(main())
