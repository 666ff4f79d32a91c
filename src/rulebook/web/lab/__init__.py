"""The balance lab in the browser: a designer changes a game's data and reads the balance move,
without a terminal (``/lab``). :mod:`~rulebook.web.lab.routes` holds the pages and the API,
:mod:`~rulebook.web.lab.store` the what-ifs and runs in the app's database,
:mod:`~rulebook.web.lab.supervisor` and :mod:`~rulebook.web.lab.worker` play the runs in
processes of their own with the CLI's runner (:mod:`~rulebook.web.lab.progress`: a run's
progress and heartbeat), :mod:`~rulebook.web.lab.check` checks what-ifs away from the server,
:mod:`~rulebook.web.lab.plots` and :mod:`~rulebook.web.lab.tuning` draw a run's figures and
tune from the page. The lab sees games only through :mod:`rulebook.core` and
:mod:`rulebook.lab`."""
