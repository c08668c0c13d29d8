# One image for both roles: `paiju serve` (the default command) and `paiju bots --redis URL`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY protocol ./protocol
COPY games ./games
COPY server ./server
COPY bots ./bots
COPY redisbus ./redisbus
COPY client ./client
COPY paiju ./paiju
# the web client's files (its msgpack library included) are package data
RUN pip install --no-cache-dir . && rm -rf /root/.cache

RUN useradd --create-home --uid 10001 paiju
USER paiju
EXPOSE 8765
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz').status != 200)"
CMD ["paiju", "serve", "--host", "0.0.0.0"]
