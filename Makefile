# Convenience wrapper: every target runs the same-named mode of ./build.sh (see ./build.sh help).
MODES := demo test sanitize strict tsan format fix-format examples determinism valgrind deps help
.PHONY: $(MODES) fuzz
$(MODES):
	./build.sh $@
fuzz:
	./build.sh fuzz $(FUZZ_SECONDS)
