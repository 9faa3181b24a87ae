// libdrm (KMS: resources, connectors, CRTCs, framebuffers, page flips, atomic) and the kernel's fbdev ioctls.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <linux/fb.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
