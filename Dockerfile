# One image for both roles: `paiju serve` (the default command) and `paiju bots --redis URL`.
# It ships the compiled build (paiju/build.py): a first stage with a C compiler builds the
# wheel (mypyc compiles the hot path), the image installs that wheel and no compiler.
FROM python:3.11-slim AS wheel
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY paiju ./paiju
# the web client's files (its msgpack library included) are package data
RUN pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY --from=wheel /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels /root/.cache \
    && paiju --version | grep -q "(compiled: mypyc"

RUN useradd --create-home --uid 10001 paiju
USER paiju
EXPOSE 8765
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz').status != 200)"
CMD ["paiju", "serve", "--host", "0.0.0.0"]
