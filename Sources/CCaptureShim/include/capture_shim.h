#ifndef CAPTURE_SHIM_H
#define CAPTURE_SHIM_H

/*
 * C side of VitalSnap's V4L2 camera: the thinnest possible layer over libv4l2.
 *
 * Swift cannot call libv4l2's variadic v4l2_open / v4l2_ioctl, and does not import the function-like
 * macros that make the ioctl request codes (VIDIOC_*) and pixel formats (V4L2_PIX_FMT_*). So this file
 * gives fixed-arity wrappers and exports those values as constants. Nothing here interprets a result:
 * every function returns -1 (or NULL) with errno set on failure, and the Swift side reads errno at once.
 * The structs themselves (v4l2_capability, v4l2_format, v4l2_buffer, ...) come from videodev2.h.
 */

#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

/* ioctl request codes. */
extern const unsigned long CS_VIDIOC_QUERYCAP;
extern const unsigned long CS_VIDIOC_ENUM_FMT;
extern const unsigned long CS_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CS_VIDIOC_S_FMT;
extern const unsigned long CS_VIDIOC_REQBUFS;
extern const unsigned long CS_VIDIOC_QUERYBUF;
extern const unsigned long CS_VIDIOC_QBUF;
extern const unsigned long CS_VIDIOC_DQBUF;
extern const unsigned long CS_VIDIOC_STREAMON;
extern const unsigned long CS_VIDIOC_STREAMOFF;

/* Pixel formats (fourccs) VitalSnap can turn into gray. */
extern const uint32_t CS_PIX_FMT_GREY;
extern const uint32_t CS_PIX_FMT_YUYV;
extern const uint32_t CS_PIX_FMT_MJPEG;
extern const uint32_t CS_PIX_FMT_JPEG;

/* v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC). Returns the fd, or -1 with errno set. Through libv4l2
   a file that is not a V4L2 device already fails here (libv4l2 queries the capabilities on open). */
int cs_open(const char *path);

/* v4l2_close. 0, or -1 with errno set. */
int cs_close(int fd);

/* v4l2_ioctl, retried on EINTR. 0 (or the ioctl's non-negative result), or -1 with errno set. */
int cs_ioctl(int fd, unsigned long request, void *arg);

/* v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset). NULL with errno set on failure
   (instead of MAP_FAILED, a cast macro Swift cannot see). */
void *cs_mmap(int fd, size_t length, int64_t offset);

/* v4l2_munmap. 0, or -1 with errno set. */
int cs_munmap(void *start, size_t length);

/* poll() for POLLIN on fd. 1 when something is ready (or an error condition is pending: the next ioctl
   reports it), 0 on timeout or when a signal interrupted the wait, -1 with errno set on failure. */
int cs_poll_readable(int fd, int timeout_ms);

#endif
