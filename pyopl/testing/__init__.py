"""Running the whole compiler for tests and tools: the diagnostic registry's examples
(:mod:`.examples`) and mutated model text that must never crash it (:mod:`.fuzz`)."""
