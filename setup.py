"""Build the optional compiled kernel (scopa._kernel, see src/scopa/kernel.py).

``optional=True``: without a C compiler or the Python headers the build is skipped and the
package runs on its pure-Python path."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "scopa._kernel",
            ["src/scopa/_kernel.c"],
            optional=True,
            extra_compile_args=["-O3", "-std=c99"],
        )
    ]
)
