"""Running games: the validated setup, the block runner, backends (threads or Dask), run folders,
records, results, progress and traces.  Imports: every layer below (``errors``, ``engine``,
``games``, ``strategies``, ``kernels``)."""
