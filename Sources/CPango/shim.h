// Pango on cairo (HarfBuzz shaping, fontconfig font selection): the text of text layers and custom drawing.
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
