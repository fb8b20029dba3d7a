// SPDX-License-Identifier: GPL-2.0
/* The log's LBA ranges: see log_region.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "trace/log_region.h"
#include "util/log.h"

#define SECTOR_SHIFT 9
#define XFS_SB_MAGIC 0x58465342 /* "XFSB" */

int log_region_add(struct log_region *r, uint64_t start, uint64_t sectors)
{
	if (r->n) {
		uint64_t *last_start = &r->range[r->n - 1].start;
		uint64_t *last_len = &r->range[r->n - 1].sectors;

		if (*last_start + *last_len == start) {
			*last_len += sectors;
			return 0;
		}
	}
	if (r->n == BLK_LOG_MAX_RANGES)
		return -ENOSPC;
	r->range[r->n].start = start;
	r->range[r->n].sectors = sectors;
	r->n++;
	return 0;
}

uint64_t xfs_fsb_to_sector(uint64_t fsb, unsigned int agblklog,
			   uint32_t agblocks, unsigned int blocklog)
{
	uint64_t agno = fsb >> agblklog;
	uint64_t agbno = fsb & ((1ULL << agblklog) - 1);

	return (agno * agblocks + agbno) << (blocklog - SECTOR_SHIFT);
}

struct journal_walk {
	struct log_region *r;
	uint64_t sectors_per_block;
	int err;
};

static int journal_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
			 blk64_t ref_blk, int ref_offset, void *priv)
{
	struct journal_walk *w = priv;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt < 0) /* an indirect block, not the journal itself */
		return 0;
	w->err = log_region_add(w->r, *blocknr * w->sectors_per_block,
				w->sectors_per_block);
	return w->err ? BLOCK_ABORT : 0;
}

/* the ext3/ext4 journal inode's blocks, merged where contiguous */
static int ext_journal_region(const char *device, const char *fstype,
			      struct log_region *out)
{
	struct journal_walk walk = { .r = out };
	ext2_filsys fs;
	errcode_t rc;
	ext2_ino_t ino;
	int err = 0;

	rc = ext2fs_open(device, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (rc) {
		snprintf(out->source, sizeof(out->source),
			 "%s: ext2fs_open %s: %s", fstype, device,
			 error_message(rc));
		return -EIO;
	}
	ino = fs->super->s_journal_inum;
	if (!ext2fs_has_feature_journal(fs->super)) {
		snprintf(out->source, sizeof(out->source), "%s: no journal",
			 fstype);
		goto out;
	}
	if (!ino) {
		snprintf(
			out->source, sizeof(out->source),
			"%s: external journal (device %u:%u), not on this device",
			fstype, fs->super->s_journal_dev >> 8,
			fs->super->s_journal_dev & 0xff);
		goto out;
	}
	walk.sectors_per_block = (uint64_t)fs->blocksize >> SECTOR_SHIFT;
	rc = ext2fs_block_iterate3(fs, ino,
				   BLOCK_FLAG_READ_ONLY | BLOCK_FLAG_DATA_ONLY,
				   NULL, journal_block, &walk);
	if (rc || walk.err) {
		out->n = 0;
		if (walk.err)
			snprintf(
				out->source, sizeof(out->source),
				"%s: journal inode %u has more than %d discontiguous extents",
				fstype, ino, BLK_LOG_MAX_RANGES);
		else
			snprintf(out->source, sizeof(out->source),
				 "%s: reading journal inode %u: %s", fstype,
				 ino, error_message(rc));
		err = walk.err ? walk.err : -EIO;
		goto out;
	}
	snprintf(out->source, sizeof(out->source),
		 "%s journal inode %u (libext2fs)", fstype, ino);
out:
	ext2fs_close_free(&fs);
	return err;
}

static uint32_t be32_at(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64_at(const unsigned char *p)
{
	return (uint64_t)be32_at(p) << 32 | be32_at(p + 4);
}

/* the XFS internal log from the primary superblock (struct xfs_dsb) */
static int xfs_log_region(const char *device, struct log_region *out)
{
	unsigned char sb[512];
	unsigned int blocklog, agblklog;
	uint64_t logstart, start, sectors;
	uint32_t agblocks, logblocks;
	ssize_t n;
	int fd;

	fd = open(device, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out->source, sizeof(out->source), "xfs: open %s: %s",
			 device, strerror_safe(errno));
		return -errno;
	}
	n = pread(fd, sb, sizeof(sb), 0);
	close(fd);
	if (n != (ssize_t)sizeof(sb) || be32_at(sb) != XFS_SB_MAGIC) {
		snprintf(out->source, sizeof(out->source),
			 "xfs: %s has no XFS superblock at offset 0", device);
		return -EIO;
	}
	logstart = be64_at(sb + 48); /* sb_logstart */
	agblocks = be32_at(sb + 84); /* sb_agblocks */
	logblocks = be32_at(sb + 96); /* sb_logblocks */
	blocklog = sb[120]; /* sb_blocklog */
	agblklog = sb[124]; /* sb_agblklog */
	if (blocklog < SECTOR_SHIFT || blocklog > 16 || agblklog > 32 ||
	    be32_at(sb + 4) != 1U << blocklog) {
		snprintf(
			out->source, sizeof(out->source),
			"xfs: %s: superblock geometry makes no sense (blocklog %u, agblklog %u)",
			device, blocklog, agblklog);
		return -EIO;
	}
	if (!logstart) {
		snprintf(out->source, sizeof(out->source),
			 "xfs: external log, not on this device");
		return 0;
	}
	start = xfs_fsb_to_sector(logstart, agblklog, agblocks, blocklog);
	sectors = (uint64_t)logblocks << (blocklog - SECTOR_SHIFT);
	log_region_add(out, start, sectors);
	snprintf(out->source, sizeof(out->source),
		 "xfs sb_logstart %llu, sb_logblocks %u",
		 (unsigned long long)logstart, logblocks);
	return 0;
}

/* where a partition starts on its disk, in sectors; 0 for a whole disk */
static uint64_t partition_start(const char *device)
{
	unsigned long long start = 0;
	char path[128];
	struct stat st;
	FILE *f;

	if (stat(device, &st) || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/start",
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &start) != 1)
		start = 0;
	fclose(f);
	return start;
}

int log_region_read(const char *device, const char *fstype,
		    struct log_region *out)
{
	uint64_t offset;
	unsigned int i;
	size_t len;
	int err;

	memset(out, 0, sizeof(*out));
	if (!strcmp(fstype, "ext2") || !strcmp(fstype, "ext3") ||
	    !strcmp(fstype, "ext4"))
		err = ext_journal_region(device, fstype, out);
	else if (!strcmp(fstype, "xfs"))
		err = xfs_log_region(device, out);
	else {
		snprintf(out->source, sizeof(out->source),
			 "%s: fsprof does not know where its log is", fstype);
		return 0;
	}
	/* block requests carry sectors of the whole disk */
	offset = out->n ? partition_start(device) : 0;
	if (!offset)
		return err;
	for (i = 0; i < out->n; i++)
		out->range[i].start += offset;
	len = strlen(out->source);
	snprintf(out->source + len, sizeof(out->source) - len,
		 ", + partition start %llu", (unsigned long long)offset);
	return err;
}
