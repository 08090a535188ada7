/* Whom the disk cache trusts (diskcache_trust.h): the folder, its parents
 * and each entry. */
/* SPDX-License-Identifier: MIT */
#include "diskcache_trust.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* getpwuid_r/getgrnam_r need room for the whole record; group lists of
 * thousands of members need more than a page. Engines of a group open
 * the cache from several threads at once, hence the _r calls. */
#define NSS_BUF_SIZE 65536

static int
user_in_own_groups(gid_t gid)
{
	gid_t *list;
	int n, in = 0;

	if (getegid() == gid)
		return 1;
	n = getgroups(0, NULL);
	if (n <= 0 || !(list = malloc((size_t)n * sizeof(*list))))
		return 0;
	n = getgroups(n, list);
	for (int i = 0; i < n && !in; i++)
		in = list[i] == gid;
	free(list);
	return in;
}

/* Whether user @p uid belongs to group @p gid, by the user and group
 * databases (for users other than ourselves). */
static int
other_user_in_group(uid_t uid, gid_t gid)
{
	char *buf = malloc(NSS_BUF_SIZE);
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;
	int member = 0;

	if (!buf)
		return 0;
	if (getpwuid_r(uid, &pw, buf, NSS_BUF_SIZE, &pwp) != 0 || !pwp)
		goto out;
	if (pw.pw_gid == gid) {
		member = 1;
		goto out;
	}
	{
		char name[256];

		snprintf(name, sizeof(name), "%s", pw.pw_name);
		if (getgrgid_r(gid, &gr, buf, NSS_BUF_SIZE, &grp) != 0 || !grp)
			goto out;
		for (char **m = gr.gr_mem; *m; m++) {
			if (strcmp(*m, name) == 0) {
				member = 1;
				break;
			}
		}
	}
out:
	free(buf);
	return member;
}

int
diskcache_trust_init(struct diskcache_trust *trust, const char *group,
                     char why[DISKCACHE_WHY_SIZE])
{
	struct group gr, *grp = NULL;
	char *buf;
	int err;

	trust->uid = geteuid();
	trust->shared = 0;
	trust->gid = (gid_t)-1;
	if (!group)
		return 0;
	buf = malloc(NSS_BUF_SIZE);
	if (!buf) {
		snprintf(why, DISKCACHE_WHY_SIZE, "out of memory looking up group \"%.100s\"", group);
		return -1;
	}
	err = getgrnam_r(group, &gr, buf, NSS_BUF_SIZE, &grp);
	if (err != 0 || !grp) {
		snprintf(why, DISKCACHE_WHY_SIZE, "group \"%.100s\": %s", group,
		         err ? strerror(err) : "no such group");
		free(buf);
		return -1;
	}
	trust->gid = gr.gr_gid;
	free(buf);
	if (!user_in_own_groups(trust->gid)) {
		snprintf(why, DISKCACHE_WHY_SIZE, "group \"%.100s\": you are not in that group",
		         group);
		return -1;
	}
	trust->shared = 1;
	return 0;
}

/* The user, root, or (shared) a member of the group. */
static int
trusted_owner(const struct diskcache_trust *trust, uid_t uid)
{
	if (uid == trust->uid || uid == 0)
		return 1;
	return trust->shared && other_user_in_group(uid, trust->gid);
}

static void
owner_reason(char *why, const char *what, const struct stat *st)
{
	snprintf(why, DISKCACHE_WHY_SIZE, "%.1000s is owned by uid %lu, not by you (uid %lu)", what,
	         (unsigned long)st->st_uid, (unsigned long)geteuid());
}

static int
check_folder_itself(const struct diskcache_trust *trust, const char *dir, char *why)
{
	struct stat st;
	mode_t forbidden = trust->shared ? S_IWOTH : (S_IWGRP | S_IWOTH);

	if (lstat(dir, &st) != 0) {
		snprintf(why, DISKCACHE_WHY_SIZE, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, DISKCACHE_WHY_SIZE, "it is not a folder");
		return -1;
	}
	if (trust->shared ? !trusted_owner(trust, st.st_uid) : st.st_uid != trust->uid) {
		owner_reason(why, "it", &st);
		return -1;
	}
	if (trust->shared && st.st_gid != trust->gid) {
		snprintf(why, DISKCACHE_WHY_SIZE,
		         "its group is gid %lu, not the shared group's gid %lu (chgrp it)",
		         (unsigned long)st.st_gid, (unsigned long)trust->gid);
		return -1;
	}
	if (st.st_mode & forbidden) {
		snprintf(why, DISKCACHE_WHY_SIZE, "it is writable by %s (mode %04o)",
		         st.st_mode & S_IWOTH ? "others" : "its group", (unsigned)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

int
diskcache_trust_folder(const struct diskcache_trust *trust, const char *dir,
                       char why[DISKCACHE_WHY_SIZE])
{
	size_t len = strlen(dir);
	char *p;
	int rc = 0;

	if (dir[0] != '/') {
		snprintf(why, DISKCACHE_WHY_SIZE, "not an absolute path");
		return -1;
	}
	if (check_folder_itself(trust, dir, why) != 0)
		return -1;
	p = strdup(dir);
	if (!p) {
		snprintf(why, DISKCACHE_WHY_SIZE, "%s", strerror(ENOMEM));
		return -1;
	}
	/*
	 * Whoever can write a parent can rename the folder away and put one of
	 * their own in its place. A root-owned sticky folder (/tmp) lets
	 * nobody rename what is not theirs, so the walk stops there.
	 */
	while (len > 1) {
		struct stat st;

		while (len > 1 && p[len - 1] != '/')
			len--;
		if (len > 1)
			len--;  /* the slash, except the root's own */
		p[len] = '\0';
		if (lstat(p, &st) != 0) {
			snprintf(why, DISKCACHE_WHY_SIZE, "its parent %.1000s: %s", p, strerror(errno));
			rc = -1;
			break;
		}
		if (st.st_uid == 0 && (st.st_mode & S_ISVTX))
			break;
		if (st.st_mode & S_IWOTH) {
			snprintf(why, DISKCACHE_WHY_SIZE, "its parent %.1000s is writable by others (mode %04o)",
			         p, (unsigned)(st.st_mode & 07777));
			rc = -1;
			break;
		}
		if (!trusted_owner(trust, st.st_uid) && (st.st_mode & (S_IWUSR | S_IWGRP))) {
			char what[DISKCACHE_WHY_SIZE];

			snprintf(what, sizeof(what), "its parent %.1000s (writable)", p);
			owner_reason(why, what, &st);
			rc = -1;
			break;
		}
	}
	free(p);
	return rc;
}

const char *
diskcache_trust_entry(const struct diskcache_trust *trust, const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_mode & S_IWOTH)
		return "writable by others";
	if (trust->shared && st->st_gid == trust->gid)
		return NULL;
	if (st->st_uid != trust->uid)
		return trust->shared ? "owned by another user and not of the shared group"
		                     : "owned by another user";
	if (st->st_mode & S_IWGRP)
		return "writable by its group";
	return NULL;
}
