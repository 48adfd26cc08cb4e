"""What people read: figures drawn and report pages written (numbers are formatted by
``simulator.engine.formatting``).  Imports: ``running``
(results, run folders) and every layer below it; nothing of ``analysis`` or ``cli``."""
