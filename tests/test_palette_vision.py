"""The colour-blind palette is told apart by viewers with deuteranopia or protanopia (issue
16, item 6), and by everyone else.

Colours are put through Machado, Oliveira and Fernandes' (2009) simulations of deuteranopia and
protanopia at full severity (a matrix on linear sRGB), then compared in CIELAB with CIEDE2000.
Every pair of powers in a variant, and every power against the railroad (orange) and canal
(blue) arrows, must stay apart; so must the pale tints that fill owned provinces, against each
other and, clearly, against the unowned land of the board.
"""

from __future__ import annotations

import math

import pytest

from games import engine
from variants.render import PALETTES, SUEZ_COLOUR, TSR_COLOUR, _mix, power_colours

# Machado et al. 2009, deuteranomaly at severity 1.0 (deuteranopia), on linear RGB.
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
# Machado et al. 2009, protanomaly at severity 1.0 (protanopia), on linear RGB.
PROTANOPIA = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
# Apart enough to name a power from the legend at a glance: full colours (units, swatches,
# arrows) and the province fills, which are the colours mixed with white.
FULL_APART = 15.0
TINT_APART = 9.0
LAND_APART = 12.0  # an owned province against the unowned land (China's in Tibet's)
FILL_SHARE = 0.55  # how much of a power's colour an owned province's fill carries
LAND = ("#e8dcb5", "#efe4c4", "#e4d8ae", "#f3e9cf", "#ece0bc")  # the boards' unowned land


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))


def deuteranope(colour: str, matrix=DEUTERANOPIA) -> tuple[float, float, float]:
    """The sRGB colour a viewer with deuteranopia (or the matrix's deficiency) sees."""
    linear = [_linear(c) for c in _rgb(colour)]
    return tuple(_encoded(sum(m * c for m, c in zip(row, linear, strict=True))) for row in matrix)


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """sRGB (D65) to CIELAB."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    else:
        dhp = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    dl, dc, dh = (l2 - l1) / s_l, (c2p - c1p) / s_c, d_h / s_h
    return math.sqrt(dl**2 + dc**2 + dh**2 + r_t * dc * dh)


def seen_apart(one: str, two: str, matrix=DEUTERANOPIA) -> float:
    """How far apart a viewer with deuteranopia (or the matrix's deficiency) sees two colours."""
    return ciede2000(lab(deuteranope(one, matrix)), lab(deuteranope(two, matrix)))


def least_apart(one: str, two: str) -> float:
    """How far apart two colours look to the viewer who tells them apart least: normal
    vision, deuteranopia or protanopia."""
    return min(
        ciede2000(lab(_rgb(one)), lab(_rgb(two))),
        seen_apart(one, two),
        seen_apart(one, two, PROTANOPIA),
    )


@pytest.mark.parametrize(
    ("one", "two", "expected"),
    [  # Sharma, Wu and Dalal (2005), the CIEDE2000 test data, pairs 1, 7 and 17
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ],
)
def test_ciede2000_matches_the_published_test_data(one, two, expected) -> None:
    assert ciede2000(one, two) == pytest.approx(expected, abs=1e-4)


def test_the_simulation_merges_what_deuteranopes_confuse() -> None:
    """Red and green of equal lightness fall together; blue and yellow stay apart."""
    assert seen_apart("#b35900", "#6b7a00") < 10
    assert ciede2000(lab(_rgb("#b35900")), lab(_rgb("#6b7a00"))) > 25  # plain to the rest of us
    assert seen_apart("#0000ff", "#ffff00") > 50


def _pairs(variant: str) -> list[tuple[str, str, str, str]]:
    colours = power_colours(variant, "colour-blind")
    names = list(colours)
    return [(a, colours[a], b, colours[b]) for i, a in enumerate(names) for b in names[:i]]


@pytest.mark.parametrize("variant", engine.variant_ids())
def test_no_two_powers_look_alike(variant) -> None:
    for a, ca, b, cb in _pairs(variant):
        apart = least_apart(ca, cb)
        assert apart >= FULL_APART - 0.5, (variant, a, b, round(apart, 1))


@pytest.mark.parametrize("variant", engine.variant_ids())
def test_no_power_looks_like_the_railroad_or_canal_arrow(variant) -> None:
    for power, colour in power_colours(variant, "colour-blind").items():
        for arrow in (TSR_COLOUR, SUEZ_COLOUR):
            apart = least_apart(colour, arrow)
            assert apart >= FULL_APART - 0.5, (variant, power, arrow, round(apart, 1))


@pytest.mark.parametrize("variant", engine.variant_ids())
def test_owned_provinces_stay_apart_from_each_other_and_from_unowned_land(variant) -> None:
    for a, ca, b, cb in _pairs(variant):
        apart = least_apart(_mix(ca, "#ffffff", FILL_SHARE), _mix(cb, "#ffffff", FILL_SHARE))
        assert apart >= TINT_APART - 0.5, (variant, a, b, round(apart, 1))
    for power, colour in power_colours(variant, "colour-blind").items():
        fill = _mix(colour, "#ffffff", FILL_SHARE)
        for land in LAND:
            apart = least_apart(fill, land)
            assert apart >= LAND_APART, (variant, power, land, round(apart, 1))


def test_protanopia_merges_red_and_green_too() -> None:
    assert seen_apart("#b35900", "#6b7a00", PROTANOPIA) < 12
    assert seen_apart("#0000ff", "#ffff00", PROTANOPIA) > 50


def test_the_palette_covers_the_largest_variant() -> None:
    largest = max(len(power_colours(v)) for v in engine.variant_ids())
    assert len(set(PALETTES["colour-blind"][:largest])) == largest
