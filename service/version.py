from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("paiju")
except PackageNotFoundError:  # running from a source tree that is not installed
    VERSION = "0+unknown"
