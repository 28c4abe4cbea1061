// FreeType for Swift (CoreText): faces, metrics, unscaled outlines (FT_Outline_Decompose).
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include FT_SFNT_NAMES_H
