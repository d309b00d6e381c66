"""Draw the installed app's PNG icons (src/scopa/web/icons/) from the same shapes as
icon.svg: a card of coins on the felt. PNGs because an installed app's launcher wants
192 and 512 px pictures; drawn with Pillow (a dev dependency), run by hand when the
design changes:

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ICONS = Path(__file__).resolve().parents[1] / "src" / "scopa" / "web" / "icons"
FELT, PAPER, INK, GOLD, RED = "#1d6b3a", "#fbf6e9", "#7a4f00", "#e6b422", "#c0392b"


def draw(size: int, maskable: bool = False) -> Image.Image:
    """The icon at ``size`` px; ``maskable``: the felt to the edges and the card inside the
    middle 80% (the safe zone a launcher's mask keeps)."""
    big = 1024  # drawn large, then scaled down smoothly
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if maskable:
        d.rectangle((0, 0, big, big), fill=FELT)
    else:
        d.rounded_rectangle((0, 0, big - 1, big - 1), radius=192, fill=FELT)
    k = 0.8 if maskable else 1.0  # the card's scale about the middle

    def at(x: float, y: float) -> tuple[float, float]:
        return (big / 2 + (x * 2 - big / 2) * k, big / 2 + (y * 2 - big / 2) * k)

    d.rounded_rectangle((*at(136, 72), *at(376, 440)), radius=int(56 * k), fill=PAPER,
                        outline=INK, width=int(20 * k))
    d.ellipse((*at(164, 164), *at(348, 348)), fill=GOLD, outline=INK, width=int(20 * k))
    star = [(256, 196), (274, 238), (316, 256), (274, 274), (256, 316), (238, 274), (196, 256),
            (238, 238)]
    d.polygon([at(x, y) for x, y in star], fill=RED)
    try:
        font = ImageFont.truetype("DejaVuSerif-Bold.ttf", int(104 * k))
    except OSError:
        font = ImageFont.load_default()
    d.text(at(168, 84), "7", fill=INK, font=font)
    return img.resize((size, size), Image.LANCZOS)


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw(size).save(ICONS / f"icon-{size}.png", optimize=True)
    draw(512, maskable=True).save(ICONS / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
