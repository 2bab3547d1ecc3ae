// SPDX-License-Identifier: Apache-2.0
#include "synthetic_digits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace nanscope::demo {

namespace {

struct Point
{
    double x;
    double y;
};

// A glyph is a few polylines in a unit box, x to the right and y downwards.
using Polyline = std::vector<Point>;
using Glyph = std::vector<Polyline>;

Polyline line(Point a, Point b)
{
    return {a, b};
}

// An elliptic arc from `fromDegrees` to `toDegrees`; 0° points right and 90° down.
Polyline arc(Point centre, double rx, double ry, double fromDegrees, double toDegrees)
{
    const int pieces = std::max(4, static_cast<int>(std::abs(toDegrees - fromDegrees) / 15.0));
    Polyline points;
    for (int i = 0; i <= pieces; ++i) {
        const double degrees = fromDegrees + (toDegrees - fromDegrees) * i / pieces;
        const double radians = degrees * std::numbers::pi / 180.0;
        points.push_back({centre.x + rx * std::cos(radians), centre.y + ry * std::sin(radians)});
    }
    return points;
}

Glyph glyph(int digit)
{
    switch (digit) {
    case 0:
        return {arc({0.5, 0.5}, 0.32, 0.45, 0, 360)};
    case 1:
        return {line({0.55, 0.05}, {0.5, 0.95}), line({0.3, 0.25}, {0.55, 0.05})};
    case 2:
        return {arc({0.5, 0.3}, 0.3, 0.25, 180, 390), line({0.76, 0.42}, {0.15, 0.95}),
                line({0.15, 0.95}, {0.87, 0.95})};
    case 3:
        return {arc({0.5, 0.28}, 0.28, 0.23, 200, 450), arc({0.5, 0.72}, 0.32, 0.25, 270, 520)};
    case 4:
        return {line({0.65, 0.95}, {0.65, 0.05}), line({0.65, 0.05}, {0.12, 0.65}),
                line({0.12, 0.65}, {0.88, 0.65})};
    case 5:
        return {line({0.8, 0.05}, {0.3, 0.05}), line({0.3, 0.05}, {0.27, 0.49}),
                arc({0.52, 0.68}, 0.32, 0.27, 225, 510)};
    case 6:
        return {arc({0.7, 0.6}, 0.45, 0.55, 260, 180), arc({0.5, 0.72}, 0.26, 0.23, 0, 360)};
    case 7:
        return {line({0.12, 0.05}, {0.88, 0.05}), line({0.88, 0.05}, {0.4, 0.95})};
    case 8:
        return {arc({0.5, 0.27}, 0.25, 0.22, 0, 360), arc({0.5, 0.72}, 0.3, 0.24, 0, 360)};
    default:
        return {arc({0.5, 0.3}, 0.28, 0.25, 0, 360), line({0.78, 0.3}, {0.7, 0.95})};
    }
}

// How one drawing of a glyph differs from the prototype.
struct Style
{
    double height;    // pixels
    double width;     // pixels
    Point centre;     // pixels
    double slant;     // horizontal shift per pixel of height
    double rotation;  // radians
    double warp;      // amplitude of a sideways wave, pixels
    double warpPhase; // radians
    double halfWidth; // of the stroke, pixels
    double ink;       // intensity at the middle of a stroke
};

Style randomStyle(Random& random)
{
    Style s{};
    s.height = random.uniform(16.0, 22.0);
    s.width = s.height * random.uniform(0.6, 0.8);
    s.centre = {14.0 + random.uniform(-0.5, 0.5), 14.0 + random.uniform(-0.5, 0.5)};
    s.slant = random.uniform(-0.3, 0.3);
    s.rotation = random.uniform(-0.15, 0.15);
    s.warp = random.uniform(0.0, 0.6);
    s.warpPhase = random.uniform(0.0, 2.0 * std::numbers::pi);
    // Mostly thin pen strokes, with a long tail of bold ones as in MNIST: the bold digits push
    // the logits of the first Adam step so far apart that a probability underflows to 0, which
    // is what the tutorial's bug needs, while the thin majority keeps the set learnable. With
    // this mix 18% of the pixels are ink and their mean is 0.13, as in MNIST.
    s.halfWidth = 0.5 + 3.5 * std::pow(random.uniform(), 3.0);
    s.ink = random.uniform(0.95, 1.0);
    return s;
}

Point toPixels(Point p, const Style& s)
{
    double x = (p.x - 0.5) * s.width;
    const double y = (p.y - 0.5) * s.height;
    x += s.slant * -y + s.warp * std::sin(2.0 * std::numbers::pi * p.y + s.warpPhase);
    const double c = std::cos(s.rotation);
    const double n = std::sin(s.rotation);
    return {s.centre.x + c * x - n * y, s.centre.y + n * x + c * y};
}

double distanceToSegment(Point p, Point a, Point b)
{
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    const double length2 = dx * dx + dy * dy;
    double t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

// Anti-aliased thick segment: full ink within the half width, fading over one pixel.
void drawSegment(std::array<double, kImagePixels>& canvas, Point a, Point b, const Style& s)
{
    const double reach = s.halfWidth + 1.0;
    const auto lo = [&](double v) {
        return std::max(0, static_cast<int>(std::floor(v - reach)));
    };
    const auto hi = [&](double v) {
        return std::min(static_cast<int>(kImageSide) - 1, static_cast<int>(std::ceil(v + reach)));
    };
    for (int row = lo(std::min(a.y, b.y)); row <= hi(std::max(a.y, b.y)); ++row)
        for (int col = lo(std::min(a.x, b.x)); col <= hi(std::max(a.x, b.x)); ++col) {
            const double d = distanceToSegment({col + 0.5, row + 0.5}, a, b);
            const double cover = std::clamp(s.halfWidth + 0.5 - d, 0.0, 1.0);
            double& pixel = canvas[static_cast<std::size_t>(row * kImageSide + col)];
            pixel = std::max(pixel, cover * s.ink);
        }
}

void drawDigit(int digit, Random& random, std::uint8_t* out)
{
    const Style style = randomStyle(random);
    std::array<double, kImagePixels> canvas{};
    for (const Polyline& stroke : glyph(digit))
        for (std::size_t i = 1; i < stroke.size(); ++i)
            drawSegment(canvas, toPixels(stroke[i - 1], style), toPixels(stroke[i], style), style);
    for (std::size_t i = 0; i < canvas.size(); ++i) {
        // Uneven ink, but the background stays exactly 0 as in MNIST.
        const double value = canvas[i] > 0 ? canvas[i] * random.uniform(0.95, 1.0) : 0.0;
        out[i] = static_cast<std::uint8_t>(std::lround(255.0 * value));
    }
}

Dataset makeSplit(std::int64_t size, Random& random)
{
    Dataset data{UInt8Tensor({size, kImageSide, kImageSide}), UInt8Tensor({size})};
    for (std::int64_t i = 0; i < size; ++i) {
        const auto digit = static_cast<int>(random.below(kClasses));
        data.labels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(digit);
        drawDigit(digit, random, data.images.data() + i * kImagePixels);
    }
    return data;
}

} // namespace

DataSplits makeSyntheticDigits(const SyntheticDigitsOptions& options)
{
    // Separate streams so that the test set does not change with the size of the train set.
    Random trainRandom(options.seed * 2 + 1);
    Random testRandom(options.seed * 2 + 2);
    DataSplits splits;
    splits.train = makeSplit(options.trainSize, trainRandom);
    splits.test = makeSplit(options.testSize, testRandom);
    splits.source = "synthetic digits (" + std::to_string(options.trainSize) + " train, " +
                    std::to_string(options.testSize) + " test)";
    return splits;
}

} // namespace nanscope::demo
