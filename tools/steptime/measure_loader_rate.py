#!/usr/bin/env python3
"""Samples per second one CPU core decodes and augments as a torchvision-style ImageNet training loader does
(JPEG decode, RandomResizedCrop to 224 x 224 with scale 0.08-1 and ratio 3/4-4/3, horizontal flip, to a uint8
array; normalisation left to the GPU, as NVIDIA's DeepLearningExamples do): a figure for `spotsim steptime
--loader-rate` on this machine (docs/step-time.md#input-pipeline). One process, one core, CPU time.

The images: 64 JPEGs (quality 90, ImageNet-like sizes 500x375, 375x500, 500x333, 400x300) cut from the one photo
Debian ships with matplotlib (sample_data/grace_hopper.jpg); real ImageNet JPEGs average about 110 KB against these
~45 KB, so a real dataset decodes slower. Pillow as Debian packages it (libjpeg-turbo).

  python3 tools/steptime/measure_loader_rate.py [--seconds 5]
"""
import argparse
import io
import math
import pathlib
import random
import time

import matplotlib
import numpy as np
from PIL import Image


def sample_jpegs(rng, count=64):
    photo = pathlib.Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg"
    source = Image.open(photo).convert("RGB")
    out = []
    for _ in range(count):
        w, h = rng.choice([(500, 375), (375, 500), (500, 333), (400, 300)])
        x0, y0 = rng.randint(0, source.size[0] // 3), rng.randint(0, source.size[1] // 3)
        crop = source.crop((x0, y0, x0 + source.size[0] // 2, y0 + source.size[1] // 2)).resize((w, h), Image.BICUBIC)
        buffer = io.BytesIO()
        crop.save(buffer, "JPEG", quality=90)
        out.append(buffer.getvalue())
    return out


def random_resized_crop(image, rng, size=224):
    width, height = image.size
    for _ in range(10):
        area = width * height * rng.uniform(0.08, 1.0)
        ratio = math.exp(rng.uniform(math.log(3 / 4), math.log(4 / 3)))
        w, h = int(round(math.sqrt(area * ratio))), int(round(math.sqrt(area / ratio)))
        if 0 < w <= width and 0 < h <= height:
            x, y = rng.randint(0, width - w), rng.randint(0, height - h)
            return image.resize((size, size), Image.BILINEAR, box=(x, y, x + w, y + h))
    return image.resize((size, size), Image.BILINEAR)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    rng = random.Random(1)
    jpegs = sample_jpegs(rng)
    done, started = 0, time.process_time()
    while time.process_time() - started < args.seconds:
        for data in jpegs:
            image = random_resized_crop(Image.open(io.BytesIO(data)).convert("RGB"), rng)
            if rng.random() < 0.5:
                image = image.transpose(Image.FLIP_LEFT_RIGHT)
            np.asarray(image, dtype=np.uint8)
            done += 1
    rate = done / (time.process_time() - started)
    print(f"{rate:.0f} samples/s per core ({done} images, mean JPEG {sum(map(len, jpegs)) / len(jpegs) / 1024:.0f} "
          f"KB, Pillow {Image.__version__})")


if __name__ == "__main__":
    main()
