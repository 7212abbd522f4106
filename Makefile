# Convenience wrapper: every target runs the same-named mode of ./build.sh.
.PHONY: demo test sanitize strict format fix-format examples fuzz deps
demo test sanitize strict format fix-format examples deps:
	./build.sh $@
fuzz:
	./build.sh fuzz $(FUZZ_SECONDS)
