# fsprof — build, dependencies, tests, default run.
# `make` builds build/fsprof; `make test` and `make run` are the README's two
# commands.

ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
# the BPF objects compile against vmlinux/$(ARCH)/vmlinux.h; only x86's is
# checked in: any other architecture is refused here, not half-built
ifeq ($(wildcard vmlinux/$(ARCH)/vmlinux.h),)
$(error architecture '$(shell uname -m)' (ARCH=$(ARCH)) is not supported: vmlinux/$(ARCH)/vmlinux.h is missing (checked in: $(notdir $(wildcard vmlinux/*))). To add it: on a machine of that architecture whose kernel has BTF, run scripts/gen-vmlinux.sh (it writes vmlinux/$(ARCH)/vmlinux.h from /sys/kernel/btf/vmlinux), build and make test there, and commit the header)
endif
BUILD := build
CC ?= gcc
CLANG ?= clang
BPFTOOL ?= bpftool
LLVM_STRIP ?= llvm-strip

WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
FUSE_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null || echo -I/usr/include/fuse3)
CFLAGS += $(WARN) -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc -I$(BUILD)/skel $(FUSE_CFLAGS) \
	$(SANITIZE)
# libarchive and GSL are linked from their static archives where the
# system has them (Debian's -dev packages do): only what fsprof calls goes
# in (tar reading with its decompressors; three distributions). As shared
# libraries they made every start load and relocate libxml2, ICU,
# libstdc++, nettle and libacl, which no run uses: 3.7 MB of the RSS before
# main and ~1.7 ms (issue 34's start). libarchive's own dependencies stay
# shared, only those the linked parts call kept (--as-needed); where an
# archive or one of those libraries is missing (a distribution without
# static archives), the shared library is linked as before.
# $(call have_lib,FILE): FILE's path where the linker finds it, or nothing
have_lib = $(filter /%,$(shell $(CC) -print-file-name=$(1)))
ARCHIVE_DEPS := $(filter-out -larchive,$(shell pkg-config --static --libs-only-l libarchive 2>/dev/null))
ARCHIVE_DEPS_MISSING := $(strip $(foreach l,$(ARCHIVE_DEPS:-l%=lib%.so),$(if $(call have_lib,$(l)),,$(l))))
LIBARCHIVE := -larchive
ifneq ($(and $(call have_lib,libarchive.a),$(ARCHIVE_DEPS)),)
ifeq ($(ARCHIVE_DEPS_MISSING),)
LIBARCHIVE := -Wl,--push-state,-Bstatic -larchive -Wl,--pop-state \
	-Wl,--push-state,--as-needed $(ARCHIVE_DEPS) -Wl,--pop-state
endif
endif
LIBGSL := -lgsl -lgslcblas
ifneq ($(and $(call have_lib,libgsl.a),$(call have_lib,libgslcblas.a)),)
LIBGSL := -Wl,--push-state,-Bstatic -lgsl -lgslcblas -Wl,--pop-state
endif
LDLIBS := -lbpf -lelf -lz -ljansson -lm -lblkid -lext2fs -lcom_err \
	$(LIBARCHIVE) $(LIBGSL) -lsqlite3 -lfuse3 -lpthread

# BPF_PROG() declares ctx whether a program uses it or not
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) $(WARN) -Wno-unused-parameter \
	-Ivmlinux/$(ARCH) -Iinclude -Ibpf

# one object: every domain's programs and the phase marker's
# (bpf/fsprof.bpf.c includes each bpf/<domain>.bpf.c and marker.bpf.c)
BPF_SRCS := bpf/fsprof.bpf.c
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(BUILD)/skel/%.skel.h,$(BPF_SRCS))

SRCS := $(shell find src -name '*.c' | sort)
# data/noise-floors.tsv, data/classic.tsv and data/kpi.tsv, embedded
# (scripts/embed-noise-floors.awk, scripts/embed-classic.awk,
# scripts/embed-kpi.awk, with scripts/embed-tsv.awk)
GEN_NAMES := noise_floors_tsv classic_tsv kpi_tsv
GEN_OBJS := $(patsubst %,$(BUILD)/obj/gen/%.o,$(GEN_NAMES))
OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(SRCS)) $(GEN_OBJS)
LIB_OBJS := $(filter-out $(BUILD)/obj/main.o,$(OBJS))

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

# Debian packages. What building and running fsprof need (make run
# installs these): the BPF toolchain and libraries, the mkfs tools, the
# tools a run calls (tar and xz-utils unpack untar's tree; mdadm and
# dmsetup build the stacks of --raid and --dm, on the host or copied into
# a guest), SQLite for the run history, libfuse3 for the device model's
# engine (a disk served from user space under the traced loop device).
DEPS_RUN := clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev pkg-config \
	libjansson-dev libarchive-dev libgsl-dev libblkid-dev libext2fs-dev \
	libacl1-dev liblz4-dev libzstd-dev libsqlite3-dev libfuse3-dev \
	e2fsprogs xfsprogs btrfs-progs util-linux kmod \
	tar xz-utils gzip mdadm dmsetup

# What the tests add (make test installs both lists): cmocka, bats,
# bpftrace and jq for the cross-checks, python3 (SciPy and NumPy for the
# statistics checks, jsonschema for the results schema); QEMU, busybox
# and the unpackers for the cross-kernel test; fsmark and bonnie++ as the
# benchmarks' reference tools; fdisk for the partition tests; the sqlite3
# shell for the history tests; chromium (the HTML report, headless);
# groff and man-db (the man page); promtool (Debian's prometheus) for the
# --openmetrics output; stress-ng, make test-stress's CPU and IO hog;
# libclang-rt-14-dev, the fuzzer runtime of make fuzz (clang 14);
# libbpf-tools (biolatency, offcputime), scripts/bench/per-io-cost.sh's
# peers; mmdebstrap, the clean Debian root make deb's package installs
# into (scripts/chroot-base.sh); strace, to hold a system call of a run
# (a signal lands in that window: device_model.bats).
DEPS_TEST := libcmocka-dev bats bpftrace jq python3 libbpf-tools strace \
	python3-scipy python3-numpy python3-jsonschema \
	qemu-system-x86 busybox-static zstd cpio binutils \
	fsmark bonnie++ fdisk sqlite3 chromium groff-base man-db \
	prometheus stress-ng libclang-rt-14-dev mmdebstrap

DEPS := $(DEPS_RUN) $(DEPS_TEST)

.PHONY: all deps deps-run test unit integration run clean format bench test-signals \
	test-stress fuzz test-asan install deb

all: $(BUILD)/fsprof

# the BPF objects and skeletons are kept: as intermediates make deleted them
# after a build, and the next make (make install in the tests) built all
# again
.SECONDARY: $(BPF_OBJS) $(SKELS)

# deps: what make test needs; deps-run: what make run needs
deps: DEPS_WANTED = $(DEPS)
deps-run: DEPS_WANTED = $(DEPS_RUN)
deps deps-run:
	@missing=$$(for p in $(DEPS_WANTED); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$(echo $$missing | sed 's/^/ /')"; \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(wildcard bpf/*.bpf.c) \
		$(wildcard include/fsprof/*.h)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	# its DWARF (85% of it) out: the skeleton embeds the object in
	# fsprof's binary, and libbpf reads only the BTF
	$(LLVM_STRIP) -g $@

$(BUILD)/skel/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@mkdir -p $(@D)
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@

$(BUILD)/obj/%.o: src/%.c $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/noise_floors_tsv.c: data/noise-floors.tsv \
		scripts/embed-noise-floors.awk scripts/embed-tsv.awk
	@mkdir -p $(@D)
	awk -f scripts/embed-noise-floors.awk -f scripts/embed-tsv.awk $< \
		>$@.tmp && mv $@.tmp $@ || \
		{ rm -f $@.tmp; false; }

$(BUILD)/gen/classic_tsv.c: data/classic.tsv scripts/embed-classic.awk \
		scripts/embed-tsv.awk
	@mkdir -p $(@D)
	awk -f scripts/embed-classic.awk -f scripts/embed-tsv.awk $< \
		>$@.tmp && mv $@.tmp $@ || \
		{ rm -f $@.tmp; false; }

$(BUILD)/gen/kpi_tsv.c: data/kpi.tsv scripts/embed-kpi.awk \
		scripts/embed-tsv.awk
	@mkdir -p $(@D)
	awk -f scripts/embed-kpi.awk -f scripts/embed-tsv.awk $< \
		>$@.tmp && mv $@.tmp $@ || \
		{ rm -f $@.tmp; false; }

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/fsprof: $(OBJS)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(LIB_OBJS) -o $@ $(LDLIBS) -lcmocka

$(BUILD)/bench/%: scripts/bench/%.c $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(LIB_OBJS) -o $@ $(LDLIBS)

unit: $(UNIT_BINS)

# the build on every CPU: a clean clone's ~190 objects and 33 unit tests
# take a minute and more one at a time
NPROC := $(shell nproc 2>/dev/null || echo 1)

# the package tests' clean Debian root made (or kept) before the tests, as
# deps installs packages: fetching it (14-30 s, up to 70 s at load) is the
# machine's set-up, not a test's time; deb_package.bats says why when
# there is none
test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all unit $(BUILD)/bench/model_calibrate
	@scripts/chroot-base.sh >/dev/null || echo "make test: no clean Debian root for deb_package.bats (scripts/chroot-base.sh failed)"
	@tests/run-all.sh

# 50 random SIGINT/SIGTERM trials (make test runs 10), about 2 minutes here
test-signals: all
	FSPROF_SIGNAL_TRIALS=50 tests/run-all.sh tests/integration/signals_random.bats

# the timing-sensitive files (tests/stress-files) STRESS_N times each
# (default 10) under a CPU and IO hog (stress-ng, from make deps): every
# file must pass N of N (tests/README.md)
STRESS_N ?= 10
test-stress: all
	STRESS_N=$(STRESS_N) scripts/test-stress.sh

# libFuzzer harnesses (tests/fuzz/fuzz_*.c) linked with the sources built
# again by clang with coverage, ASan and UBSan; make fuzz runs each for
# FUZZ_SECONDS from its seed corpus (tests/fuzz/corpus/NAME/); warnings are
# the gcc build's to refuse. Not part of
# make test.
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build-fuzz
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	-Wall -Wextra -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc -I$(BUILD)/skel
FUZZ_OBJS := $(patsubst src/%.c,$(FUZZ_BUILD)/obj/%.o,$(filter-out src/main.c,$(SRCS))) \
	$(patsubst %,$(FUZZ_BUILD)/obj/gen/%.o,$(GEN_NAMES))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))

$(FUZZ_BUILD)/obj/%.o: src/%.c $(SKELS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/libfsprof.a: $(FUZZ_OBJS)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_BUILD)/libfsprof.a
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_BUILD)/libfsprof.a -o $@ $(LDLIBS)

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
	tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BINS)

# the unit and integration tests on a build with ASan and UBSan (gcc), in
# build-asan/: every report fails the test. Not part of make test.
ASAN_BUILD := build-asan
# (warnings are the plain build's to refuse: under ASan gcc's flow analysis
# warns of what it cannot see through)
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer -Wno-error
test-asan: deps
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) \
		SANITIZE="$(ASAN_FLAGS)" all unit
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	FSPROF=$(abspath $(ASAN_BUILD))/fsprof \
		tests/run-all.sh $(ASAN_BUILD)/tests/test_* $${TESTS:-tests/integration/*.bats}

# the default run shows the findings off: a kernel-tree untar and an fsync
# loop on ext4, xfs and xfs with logbsize=256k under the hdd model, each
# warning's mount/mkfs advice re-run twice (--verify); its time, measured,
# is README's; the HTML report goes to report.html
run: deps-run
	@$(MAKE) --no-print-directory all
	$(BUILD)/fsprof run -w untar:files=20000 -w fsync:files=200 \
		--fs ext4,xfs,xfs:mount=logbsize=256k --device-model hdd-15k --verify=2 \
		--html report.html

# the binary and the man page: make install PREFIX=/usr (DESTDIR for staging)
PREFIX ?= /usr/local
install: all
	install -D -m 0755 $(BUILD)/fsprof $(DESTDIR)$(PREFIX)/bin/fsprof
	install -D -m 0644 docs/fsprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/fsprof.1
	# run --kernel's guest scripts, found beside the binary
	install -d $(DESTDIR)$(PREFIX)/lib/fsprof/vm
	install -m 0755 scripts/vm/kernel-stage.sh scripts/vm/initramfs.sh \
		scripts/vm/modules.sh scripts/vm/init scripts/vm/guest-fsprof-run.sh \
		$(DESTDIR)$(PREFIX)/lib/fsprof/vm/

# a Debian package of this tree, build/fsprof_VERSION_ARCH.deb: the binary
# (stripped), the man page and the guest scripts, its Depends the
# libraries' and tools' packages (scripts/make-deb.sh)
deb: all
	scripts/make-deb.sh $(BUILD) $(BUILD)

bench: all
	scripts/bench/tracer-attach.sh

format:
	clang-format -i $$(find src include bpf tests/unit -name '*.[ch]')

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD) $(ASAN_BUILD)

-include $(OBJS:.o=.d)

# A static fsprof for minimal systems (Debian's libbpf.a, libelf.a, libz.a,
# libjansson.a, ...). A library added to LDLIBS may need its own static
# dependencies here.
STATIC_LDLIBS = $(filter-out -Wl%,$(LDLIBS)) \
	$(shell pkg-config --static --libs-only-l libarchive blkid ext2fs sqlite3 2>/dev/null)

$(BUILD)/fsprof-static: $(OBJS)
	$(CC) $(CFLAGS) -static $^ -o $@ $(STATIC_LDLIBS)

# the kernel A/A (tests/optional/kernel_aa.bats: the same kernel twice, no
# mechanism called changed), ~60 s of QEMU: not part of make test
.PHONY: test-kernel-aa
test-kernel-aa: all
	bats --tap tests/optional/kernel_aa.bats

# fsprof on Debian's 6.1 and 6.12 kernels under QEMU (scripts/vm-test.sh;
# the guest gets build/fsprof and the libraries ldd names)
.PHONY: test-kernels
test-kernels: deps
	@$(MAKE) --no-print-directory all
	scripts/vm-test.sh --fsprof $(BUILD)/fsprof
