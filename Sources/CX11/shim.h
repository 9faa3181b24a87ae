// Xlib (EGL's X11 platform takes a Display*), MIT-SHM through libXext, and System V shared memory.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XShm.h>
// The Present extension (libXpresent): the X11 output's frames paced by the server's vertical blank (PresentNotifyMSC).
#include <X11/extensions/Xpresent.h>
#include <sys/ipc.h>
#include <sys/shm.h>

// Xlib macros Swift cannot import.
static inline int lamina_XDestroyImage(XImage *image) { return XDestroyImage(image); }
