#include "capture_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>

#include <libv4l2.h>

const unsigned long CS_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CS_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CS_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CS_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long CS_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long CS_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long CS_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long CS_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long CS_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long CS_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;

const uint32_t CS_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
const uint32_t CS_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
const uint32_t CS_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t CS_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;

int cs_open(const char *path) {
    return v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

int cs_close(int fd) {
    return v4l2_close(fd);
}

int cs_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = v4l2_ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

void *cs_mmap(int fd, size_t length, int64_t offset) {
    void *p = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    if (p == MAP_FAILED) {
        if (errno == 0) errno = EINVAL;
        return NULL;
    }
    return p;
}

int cs_munmap(void *start, size_t length) {
    return v4l2_munmap(start, length);
}

int cs_poll_readable(int fd, int timeout_ms) {
    struct pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
    int r = poll(&p, 1, timeout_ms);
    if (r < 0) return errno == EINTR ? 0 : -1;
    return r > 0 ? 1 : 0;
}
