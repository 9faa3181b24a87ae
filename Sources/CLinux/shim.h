// Linux calls Swift's Glibc module leaves out: epoll (the control channel).
#include <sys/epoll.h>
// mallinfo2 (`lamina display-cycle`: malloc's bytes in use, before and after making and dropping displays).
#include <malloc.h>
