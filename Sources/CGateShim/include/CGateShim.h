// The C seam of ts-gate: Linux UAPI and library headers, plus static inline
// wrappers for what Swift cannot call directly (variadic functions,
// function-like macros, errno). No logic lives here: every wrapper is one call.
#ifndef CGATESHIM_H
#define CGATESHIM_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/un.h>
// The coach's page: a TCP listener (IPv4), and its PIN's random bits.
#include <netinet/in.h>
#include <sys/random.h>

// Camera: V4L2 (kernel UAPI), and libv4l2 for cameras that only send MJPEG
// (its libv4lconvert decodes them; libv4l-dev, static archives on both arches).
#include <linux/videodev2.h>
#include <libv4l2.h>
#include <libv4lconvert.h>
#include <libv4l-plugin.h>
// IMU: I2C/SMBus character devices (kernel UAPI).
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
// Buttons, LED, buzzer: libgpiod v1.6 (Debian 12).
#include <gpiod.h>
// Speaker: ALSA through the kernel PCM interface, so the binary stays static.
// (<alsa/asoundlib.h> cannot share this module: its typedefs clash.)
#include <sound/asound.h>
// BLE: BlueZ's socket headers (HCI, L2CAP).
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/l2cap.h>
// PNG pictures: zlib's deflate (zlib1g-dev, static archive on both arches).
#include <zlib.h>

// ---- the CPU: CPUID leaf 1's feature bits in ECX (x86_64 only; 0 when
// CPUID has no leaf 1). CPUFloor reads them. ----
#if defined(__x86_64__)
#include <cpuid.h>
static inline unsigned int gate_cpuid_1_ecx(void) {
    unsigned int a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) ? c : 0;
}
#endif

// ---- accept4: glibc declares it only under _GNU_SOURCE, which this
// header does not set (it would change other declarations). ----
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

// ---- errno (a macro over a thread-local) ----
static inline int gate_errno(void) { return errno; }
// A helper program (espeak-ng for an athlete's name), with this process's
// environment; and its exit status from waitpid's word (128 + signal).
extern char **environ;
static inline int gate_spawnp(pid_t *pid, const char *file, char *const argv[]) { return posix_spawnp(pid, file, NULL, NULL, argv, environ); }
static inline int gate_exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }
static inline void gate_set_errno(int value) { errno = value; }

// ---- variadic calls ----
static inline int gate_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int gate_openat(int dirfd, const char *path, int flags, mode_t mode) { return openat(dirfd, path, flags, mode); }
static inline int gate_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
static inline int gate_libv4l2_ioctl_ptr(int fd, unsigned long request, void *arg) { return v4l2_ioctl(fd, request, arg); }
static inline int gate_ioctl_int(int fd, unsigned long request, int arg) { return ioctl(fd, request, arg); }

// ---- stdio streams (macros or opaque globals in glibc) ----
static inline int gate_stdout_fd(void) { return STDOUT_FILENO; }
static inline int gate_stderr_fd(void) { return STDERR_FILENO; }

// ---- signal sets (macros in glibc) ----
static inline int gate_sigemptyset(sigset_t *set) { return sigemptyset(set); }
static inline int gate_sigaddset(sigset_t *set, int signo) { return sigaddset(set, signo); }
// SIG_IGN is a cast of a constant to a function pointer: Swift cannot spell it.
static inline void gate_ignore_signal(int signo) { signal(signo, SIG_IGN); }

// ---- sockets: control messages and timestamp options (macros) ----
static inline struct cmsghdr *gate_cmsg_firsthdr(struct msghdr *m) { return CMSG_FIRSTHDR(m); }
static inline struct cmsghdr *gate_cmsg_nxthdr(struct msghdr *m, struct cmsghdr *c) { return CMSG_NXTHDR(m, c); }
static inline unsigned char *gate_cmsg_data(struct cmsghdr *c) { return CMSG_DATA(c); }
static inline size_t gate_cmsg_space(size_t length) { return CMSG_SPACE(length); }
static inline int gate_SO_TIMESTAMPNS(void) { return SO_TIMESTAMPNS; }
static inline int gate_SCM_TIMESTAMPNS(void) { return SCM_TIMESTAMPNS; }

// ---- mmap (MAP_FAILED is a cast of -1 to a pointer) ----
static inline int gate_is_map_failed(const void *address) { return address == MAP_FAILED; }

// ---- zlib: deflateInit is a macro over deflateInit_ with the library's version ----
static inline int gate_deflate_init(z_stream *stream, int level) { return deflateInit(stream, level); }

// ---- directory entries (d_name is a fixed C array) ----
static inline const char *gate_dirent_name(const struct dirent *entry) { return entry->d_name; }
static inline int gate_stat_is_dir(const struct stat *st) { return S_ISDIR(st->st_mode); }

// ---- V4L2 ioctl numbers (function-like macros) ----
static inline unsigned long gate_VIDIOC_QUERYCAP(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long gate_VIDIOC_S_FMT(void) { return VIDIOC_S_FMT; }
static inline unsigned long gate_VIDIOC_G_FMT(void) { return VIDIOC_G_FMT; }
static inline unsigned long gate_VIDIOC_S_PARM(void) { return VIDIOC_S_PARM; }
static inline unsigned long gate_VIDIOC_REQBUFS(void) { return VIDIOC_REQBUFS; }
static inline unsigned long gate_VIDIOC_QUERYBUF(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long gate_VIDIOC_QBUF(void) { return VIDIOC_QBUF; }
static inline unsigned long gate_VIDIOC_DQBUF(void) { return VIDIOC_DQBUF; }
static inline unsigned long gate_VIDIOC_STREAMON(void) { return VIDIOC_STREAMON; }
static inline unsigned long gate_VIDIOC_STREAMOFF(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long gate_VIDIOC_S_CTRL(void) { return VIDIOC_S_CTRL; }
static inline unsigned long gate_VIDIOC_G_CTRL(void) { return VIDIOC_G_CTRL; }
static inline unsigned long gate_VIDIOC_QUERYCTRL(void) { return VIDIOC_QUERYCTRL; }
static inline unsigned long gate_VIDIOC_ENUM_FMT(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long gate_VIDIOC_G_PARM(void) { return VIDIOC_G_PARM; }
static inline unsigned long gate_VIDIOC_S_INPUT(void) { return VIDIOC_S_INPUT; }
static inline unsigned long gate_VIDIOC_S_DV_TIMINGS(void) { return VIDIOC_S_DV_TIMINGS; }
static inline uint32_t gate_v4l2_fourcc(char a, char b, char c, char d) { return v4l2_fourcc(a, b, c, d); }

// ---- I2C ioctl numbers ----
static inline unsigned long gate_I2C_SLAVE(void) { return I2C_SLAVE; }
static inline unsigned long gate_I2C_SMBUS(void) { return I2C_SMBUS; }

// ---- ALSA kernel PCM ioctl numbers ----
static inline unsigned long gate_SNDRV_PCM_IOCTL_INFO(void) { return SNDRV_PCM_IOCTL_INFO; }
static inline unsigned long gate_SNDRV_PCM_IOCTL_HW_PARAMS(void) { return SNDRV_PCM_IOCTL_HW_PARAMS; }
static inline unsigned long gate_SNDRV_PCM_IOCTL_SW_PARAMS(void) { return SNDRV_PCM_IOCTL_SW_PARAMS; }
static inline unsigned long gate_SNDRV_PCM_IOCTL_PREPARE(void) { return SNDRV_PCM_IOCTL_PREPARE; }
static inline unsigned long gate_SNDRV_PCM_IOCTL_STATUS(void) { return SNDRV_PCM_IOCTL_STATUS; }
static inline unsigned long gate_SNDRV_PCM_IOCTL_WRITEI_FRAMES(void) { return SNDRV_PCM_IOCTL_WRITEI_FRAMES; }
static inline unsigned long gate_SNDRV_PCM_IOCTL_DROP(void) { return SNDRV_PCM_IOCTL_DROP; }

// snd_pcm_hw_params keeps its masks and intervals in arrays indexed from
// the first parameter of each kind: these name one element of each.
static inline struct snd_mask *gate_hw_params_mask(struct snd_pcm_hw_params *p, int param) {
    return &p->masks[param - SNDRV_PCM_HW_PARAM_FIRST_MASK];
}
static inline struct snd_interval *gate_hw_params_interval(struct snd_pcm_hw_params *p, int param) {
    return &p->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
}
static inline unsigned int gate_SNDRV_PCM_VERSION(void) { return SNDRV_PCM_VERSION; }

#endif
