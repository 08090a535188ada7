/* clwarp-run: opening regular files only (regular-file.h). */
/* SPDX-License-Identifier: MIT */
#include "regular-file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file of mode @p mode is, for a message. */
static const char *
file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

static void
refuse(const char *path, mode_t mode, char *err, size_t errlen)
{
	/* A name of thousands of characters is cut, not the reason. */
	snprintf(err, errlen, "%.300s%s is not a regular file (%s)", path,
		 strlen(path) > 300 ? "..." : "", file_kind(mode));
}

static void
cannot_read(const char *path, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot read %.300s%s: %s", path, strlen(path) > 300 ? "..." : "",
		 strerror(e));
}

FILE *
regular_file_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int fd, flags;

	/* Looked at before it is opened: opening a FIFO blocks. */
	if (stat(path, &st) != 0) {
		cannot_read(path, errno, err, errlen);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		refuse(path, st.st_mode, err, errlen);
		return NULL;
	}
	/* O_NONBLOCK, and the mode again from the open file: a file swapped
	 * for a FIFO in between is refused too, without waiting. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		cannot_read(path, errno, err, errlen);
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (S_ISREG(st.st_mode))
			cannot_read(path, errno, err, errlen);
		else
			refuse(path, st.st_mode, err, errlen);
		close(fd);
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	f = fdopen(fd, "rb");
	if (!f) {
		cannot_read(path, errno, err, errlen);
		close(fd);
	}
	return f;
}
