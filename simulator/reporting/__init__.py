"""What people read: numbers formatted, figures drawn, report pages written.  Imports: ``running``
(results, run folders) and every layer below it; nothing of ``analysis`` or ``cli``."""
