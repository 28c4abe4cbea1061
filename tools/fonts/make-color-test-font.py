#!/usr/bin/env python3
"""Writes Tests/RendererTests/Fonts/ColorBitmapTest.ttf: a tiny colour-bitmap font for the glyph
atlas's colour-emoji tests (issue 20: "colour emoji in an RGBA atlas").

One strike (`sbix`, 32 ppem, PNG) and an empty outline for U+1F600, as Apple's and Google's
colour emoji fonts are bitmap-only: the left half of the 32x32 bitmap is opaque red, the right
half opaque blue, so a test can tell the colours and their order apart. 'A' has a plain square
outline (600 units) so the font also lays out ordinary text. Units per em 1000, ascent 800,
descent 200; the emoji advances 1000 units. Needs fontTools (pip install fonttools) and Pillow.
Usage: python3 tools/fonts/make-color-test-font.py [OUT]
"""
import io
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import newTable
from fontTools.ttLib.tables.sbixGlyph import Glyph as SbixGlyph
from fontTools.ttLib.tables.sbixStrike import Strike
from PIL import Image

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/RendererTests/Fonts/ColorBitmapTest.ttf"
order = [".notdef", "A", "emoji"]
fb = FontBuilder(1000, isTTF=True)
fb.setupGlyphOrder(order)
fb.setupCharacterMap({0x41: "A", 0x1F600: "emoji"})


def square(x0, y0, x1, y1):
    pen = TTGlyphPen(None)
    pen.moveTo((x0, y0)); pen.lineTo((x0, y1)); pen.lineTo((x1, y1)); pen.lineTo((x1, y0)); pen.closePath()
    return pen.glyph()


empty = TTGlyphPen(None).glyph()
fb.setupGlyf({".notdef": square(50, 0, 450, 700), "A": square(0, 0, 600, 600), "emoji": empty})
fb.setupHorizontalMetrics({".notdef": (500, 50), "A": (600, 0), "emoji": (1000, 0)})
fb.setupHorizontalHeader(ascent=800, descent=-200)
fb.setupNameTable({"familyName": "ColorBitmapTest", "styleName": "Regular"})
fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
fb.setupPost()

img = Image.new("RGBA", (32, 32))
for y in range(32):
    for x in range(32):
        img.putpixel((x, y), (255, 0, 0, 255) if x < 16 else (0, 0, 255, 255))
png = io.BytesIO()
img.save(png, format="PNG")

sbix = newTable("sbix")
strike = Strike(ppem=32, resolution=72)
strike.glyphs["emoji"] = SbixGlyph(glyphName="emoji", graphicType="png ", originOffsetX=0, originOffsetY=0,
                                   imageData=png.getvalue())
sbix.strikes[32] = strike
fb.font["sbix"] = sbix
fb.save(out)
