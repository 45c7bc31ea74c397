"""torch eager code of the benchmark's KernelBench families, one module per
family (include/bench/kb/<family>.h): each module's BUILDERS maps a problem
name to `build(dims, device)`, which makes the inputs (fp32 torch.rand unless
the problem says otherwise) and returns a zero-argument callable that runs the
problem's forward as KernelBench's model does."""
