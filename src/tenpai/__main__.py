"""``python -m tenpai`` is the same as the ``tenpai`` command."""

from tenpai.cli.main import main

if __name__ == "__main__":
    main()
