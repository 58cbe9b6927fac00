from .arena import main

raise SystemExit(main())
