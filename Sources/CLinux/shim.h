// Linux calls Swift's Glibc module leaves out: epoll (the control channel).
#include <sys/epoll.h>
