#!/bin/busybox sh
# The kiosk test guest's /init (built by build-guest.sh): mounts the kernel's file systems, loads the DRM
# modules in order, then runs /test/run.sh (the harness's archive) and powers off. Lines that start with
# "LAMINA-VM:" are the markers the host reads on the serial console.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
# The kernel gives /init no console when the archive has no /dev/console: take it now.
exec </dev/console >/dev/console 2>&1
stty -echo 2>/dev/null
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
echo "LAMINA-VM: init $(cut -d' ' -f1 /proc/uptime)"
# Users for runs that check what an unprivileged kiosk sees (`su kiosk -c ...`): kiosk is not in the video group.
printf 'root:x:0:0:root:/root:/bin/sh\nkiosk:x:1000:1000:kiosk:/tmp:/bin/sh\n' > /etc/passwd
printf 'root:x:0:\nvideo:x:44:\nkiosk:x:1000:\n' > /etc/group
# insmod, unlike modprobe, does not read module options from the kernel command line: pass MODULE.OPTION=VALUE
# words on to it (drm_kms_helper.drm_fbdev_overalloc=200 gives fbdev room to pan).
for module in $(cat /etc/modules.order); do
    options=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^$module\.//p" | tr '\n' ' ')
    insmod "/lib/modules/$module.ko" $options || echo "LAMINA-VM: insmod $module $options failed"
done
# Wait for the card and the fbdev emulation on it (they come up asynchronously after insmod).
i=0
while [ ! -e /dev/dri/card0 ] || [ ! -e /dev/fb0 ]; do
    i=$((i + 1)); [ $i -gt 100 ] && break
    sleep 0.1
done
# The text console would draw its cursor and messages over the framebuffer: detach it.
for vtcon in /sys/class/vtconsole/vtcon*; do
    grep -q 'frame buffer' "$vtcon/name" 2>/dev/null && echo 0 > "$vtcon/bind"
done
echo "LAMINA-VM: ready $(cut -d' ' -f1 /proc/uptime) $(ls /dev/dri/ /dev/fb* 2>/dev/null | tr '\n' ' ')"
if [ -x /test/run.sh ]; then
    /test/run.sh
else
    echo "LAMINA-VM: no /test/run.sh"
fi
echo "LAMINA-VM: poweroff $(cut -d' ' -f1 /proc/uptime)"
sync
poweroff -f
