// GNU FriBidi for Swift (CoreText): the Unicode Bidirectional Algorithm (UAX #9).
#include <fribidi.h>

// FriBidi spells its constants as macro expressions Swift cannot import; these give them fixed names.
static inline FriBidiParType cfribidi_par_on(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType cfribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType cfribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiFlags cfribidi_flags_default(void) { return FRIBIDI_FLAGS_DEFAULT; }
