package io.breaker.spring.actuate;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpOutputMessage;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebInputException;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * {@link BreakerOperatorRoutes} on WebFlux: the same stream, settings and console under the endpoint's
 * own path, with the same answers (the {@code OperationResponseBody} records, written by the WebFlux
 * codecs, whose JSON encoder the actuator gives its own mapper for them), and the principal taken from
 * the exchange. Nothing here blocks an event loop:
 * <ul>
 * <li>A stream is a {@link Flux} fed from its subscriber's queue as the client asks for more: no thread
 *     waits for it. The breaker's listener only offers to the queue and, when the queue had been read
 *     empty, hands one task to Reactor's shared parallel scheduler; that task writes the JSON. An idle
 *     stream must still write its keep-alive and end at its lifetime, and nothing else happens then to
 *     wake it: for that one timer it uses the same scheduler's (Reactor's timer; no thread or timer of
 *     ours). A client that stops reading stops asking, its queue fills, and it is dropped as on MVC.</li>
 * <li>A change of settings runs on Reactor's bounded elastic scheduler, as the actuator runs its own
 *     operations on WebFlux: a breaker shared through a store publishes the change there.</li>
 * </ul>
 */
public final class ReactiveBreakerOperatorRoutes {

    private static final ParameterizedTypeReference<Map<String, Object>> BODY = new ParameterizedTypeReference<>() {};
    /** How long the last frame of an ended stream waits for a client that has not asked for it yet. */
    static final Duration LAST_FRAME_WAIT = Duration.ofSeconds(2);

    private final RuntimeSettings settings;
    private final BreakerOperations operations;
    private final BreakerEventStream stream;
    private final Function<Object, String> json;
    private final boolean writable;

    /** As {@link BreakerOperatorRoutes#BreakerOperatorRoutes}; {@code json} writes with the WebFlux codecs. */
    public ReactiveBreakerOperatorRoutes(
            RuntimeSettings settings,
            BreakerOperations operations,
            BreakerEventStream stream,
            Function<Object, String> json,
            boolean writable) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.operations = Objects.requireNonNull(operations, "operations");
        this.stream = Objects.requireNonNull(stream, "stream");
        this.json = Objects.requireNonNull(json, "json");
        this.writable = writable;
    }

    /** The routes, under {@code endpointPath}, as {@link BreakerOperatorRoutes#routes} maps them. */
    public RouterFunction<ServerResponse> routes(String endpointPath) {
        String config = OperatorPaths.config(endpointPath);
        return RouterFunctions.route()
                .GET(OperatorPaths.stream(endpointPath), this::stream)
                .GET(config, this::describe)
                .POST(config, this::change)
                .DELETE(config, this::reset)
                .route(
                        RequestPredicates.path(config)
                                .and(request -> !OperatorPaths.configAnswers(
                                        request.method().name())),
                        this::notAllowed)
                .build();
    }

    /** The console's page and its two assets ({@link BreakerConsole}), under {@code endpointPath}. */
    public static RouterFunction<ServerResponse> console(String endpointPath) {
        String root = OperatorPaths.console(endpointPath);
        RouterFunctions.Builder routes = RouterFunctions.route().GET(root, request -> file(BreakerConsole.PAGE));
        for (String name : BreakerConsole.FILES.keySet()) {
            routes.GET(root + "/" + name, request -> file(name));
        }
        return routes.build();
    }

    private static Mono<ServerResponse> file(String name) {
        return ServerResponse.ok()
                .contentType(BreakerConsole.FILES.get(name))
                .header(HttpHeaders.CACHE_CONTROL, BreakerConsole.CACHE_CONTROL)
                .header("X-Content-Type-Options", "nosniff")
                .bodyValue(BreakerConsole.file(name));
    }

    private Mono<ServerResponse> stream(ServerRequest request) {
        return principal(request).flatMap(principal -> {
            BreakerEventStream.Admission admission = stream.subscribe(principal.orElse(null), address(request));
            if (admission instanceof BreakerEventStream.Admission.Refused refused) {
                return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                        .header(HttpHeaders.RETRY_AFTER, Long.toString(refused.retryAfterSeconds()))
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(ErrorDescriptor.unavailable(refused.message()));
            }
            BreakerStreamSession session = new BreakerStreamSession(
                    stream, ((BreakerEventStream.Admission.Admitted) admission).subscriber(), operations, json);
            BodyInserter<Flux<DataBuffer>, ReactiveHttpOutputMessage> frames =
                    (message, context) -> message.writeAndFlushWith(frames(session, Schedulers.parallel())
                            .map(frame ->
                                    Mono.just(message.bufferFactory().wrap(frame.getBytes(StandardCharsets.UTF_8)))));
            return ServerResponse.ok()
                    .contentType(MediaType.TEXT_EVENT_STREAM)
                    .header(HttpHeaders.CACHE_CONTROL, "no-store")
                    .header("X-Accel-Buffering", "no")
                    .body(frames);
        });
    }

    /**
     * The session's frames, as fast as the client reads them. Every step runs on one worker of
     * {@code scheduler}, one at a time: the subscriber's signal and the client's demand only schedule a
     * step, and each step writes what is due and sets the timer for the next keep-alive or the end.
     */
    static Flux<String> frames(BreakerStreamSession session, Scheduler scheduler) {
        return Flux.create(sink -> new Pump(session, sink, scheduler.createWorker()).start());
    }

    /** Moves one session's frames into its sink; its {@link #step} runs only on its worker. */
    private static final class Pump {

        private final BreakerStreamSession session;
        private final FluxSink<String> sink;
        private final Scheduler.Worker worker;
        private final AtomicBoolean scheduled = new AtomicBoolean();
        /** Touched by steps only, as the two below. */
        private Disposable timer;

        private boolean waitingForLastFrame;
        /** When the last frame of an ended stream stops waiting for the client to ask for it. */
        private long lastFrameDue;

        Pump(BreakerStreamSession session, FluxSink<String> sink, Scheduler.Worker worker) {
            this.session = session;
            this.sink = sink;
            this.worker = worker;
        }

        void start() {
            sink.onDispose(() -> {
                worker.dispose(); // cancels the timer and any step not yet run
                session.close();
            });
            sink.onRequest(demand -> schedule());
            // Called by the breaker's listener on the thread of a protected call: one CAS, at most one task.
            session.onSignal(this::schedule);
            schedule();
        }

        private void schedule() {
            if (scheduled.compareAndSet(false, true)) {
                try {
                    worker.schedule(this::step);
                } catch (RejectedExecutionException stopped) {
                    // The stream was cancelled (nothing happens then), or Reactor's scheduler stopped:
                    // end the response, and the client reconnects, rather than leave it waiting.
                    session.close();
                    sink.error(stopped);
                }
            }
        }

        private void step() {
            scheduled.set(false);
            try {
                pump();
            } catch (RuntimeException failure) {
                session.close();
                sink.error(failure); // the response ends; the client reconnects
            }
        }

        private void pump() {
            if (session.isFinished()) {
                return;
            }
            while (sink.requestedFromDownstream() > 0) {
                String frame = session.poll();
                if (frame != null) {
                    sink.next(frame);
                }
                if (session.isFinished()) {
                    sink.complete();
                    return;
                }
                if (frame == null) {
                    break;
                }
            }
            boolean reading = sink.requestedFromDownstream() > 0;
            if (!reading && session.hasEnded()) {
                // The client has not yet asked for the frame after the last one: its slot is free now, and
                // its last frame waits a little for it (a client that reads asks again within
                // milliseconds), then the stream ends without it.
                session.release();
                long now = System.nanoTime();
                if (!waitingForLastFrame) {
                    waitingForLastFrame = true;
                    lastFrameDue = now + LAST_FRAME_WAIT.toNanos();
                } else if (now - lastFrameDue >= 0) {
                    session.close();
                    sink.complete();
                    return;
                }
                arm(lastFrameDue - now);
                return;
            }
            // Without demand only the end can be due; with it, the next keep-alive too.
            arm(reading ? session.nanosUntilDue() : session.nanosUntilEnd());
        }

        private void arm(long nanos) {
            if (timer != null) {
                timer.dispose();
            }
            timer = worker.schedule(this::schedule, Math.max(0, nanos), TimeUnit.NANOSECONDS);
        }
    }

    private Mono<ServerResponse> describe(ServerRequest request) {
        String name = request.pathVariable("name");
        return settings.describe(name)
                .map(found -> answer(HttpStatus.OK, found))
                .orElseGet(() -> error(ErrorDescriptor.notFound(name)));
    }

    private Mono<ServerResponse> change(ServerRequest request) {
        if (!writable) {
            return error(ErrorDescriptor.readOnly());
        }
        String name = request.pathVariable("name");
        long length = request.headers().contentLength().orElse(-1);
        if (length > OperatorRequestLimit.MAX_BODY_BYTES) {
            return error(ErrorDescriptor.tooLarge(length, OperatorRequestLimit.MAX_BODY_BYTES));
        }
        return DataBufferUtils.join(request.body(BodyExtractors.toDataBuffers()), OperatorRequestLimit.MAX_BODY_BYTES)
                .map(joined ->
                        ServerRequest.from(request).body(Flux.just(joined)).build())
                .flatMap(bounded -> bounded.bodyToMono(BODY))
                .onErrorMap(DataBufferLimitException.class, tooLarge -> new TooLarge())
                .onErrorMap(ServerWebInputException.class, notJson -> new NotJson())
                .switchIfEmpty(Mono.error(NotJson::new))
                .flatMap(body -> principal(request)
                        .flatMap(principal -> blocking(() -> settings.change(name, body, principal.orElse(null)))))
                .flatMap(ReactiveBreakerOperatorRoutes::result)
                .onErrorResume(NotJson.class, notJson -> error(ErrorDescriptor.settingsNotJson()))
                .onErrorResume(
                        TooLarge.class,
                        tooLarge -> error(ErrorDescriptor.tooLarge(-1, OperatorRequestLimit.MAX_BODY_BYTES)));
    }

    /** A body without a length that ran past {@link OperatorRequestLimit#MAX_BODY_BYTES}. */
    private static final class TooLarge extends RuntimeException {
        TooLarge() {
            super(null, null, false, false);
        }
    }

    private Mono<ServerResponse> notAllowed(ServerRequest request) {
        String allowed = OperatorPaths.configMethods(writable);
        return ServerResponse.status(HttpStatus.METHOD_NOT_ALLOWED)
                .header(HttpHeaders.ALLOW, allowed)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(ErrorDescriptor.methodNotAllowed(request.method().name(), allowed));
    }

    private Mono<ServerResponse> reset(ServerRequest request) {
        if (!writable) {
            return error(ErrorDescriptor.readOnly());
        }
        String name = request.pathVariable("name");
        return principal(request)
                .flatMap(principal -> blocking(() -> settings.reset(name, principal.orElse(null))))
                .flatMap(ReactiveBreakerOperatorRoutes::result);
    }

    /** A body that is not a JSON object of settings. */
    private static final class NotJson extends RuntimeException {
        NotJson() {
            super(null, null, false, false);
        }
    }

    /** Off the event loop: a breaker shared through a store publishes its change there. */
    private static <T> Mono<T> blocking(Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
    }

    private static Mono<ServerResponse> result(RuntimeSettings.Result result) {
        if (result instanceof RuntimeSettings.Result.Applied applied) {
            return answer(HttpStatus.OK, applied.settings());
        }
        if (result instanceof RuntimeSettings.Result.Stale stale) {
            return answer(HttpStatus.CONFLICT, stale.conflict());
        }
        return error(((RuntimeSettings.Result.Refused) result).error());
    }

    private static Mono<Optional<String>> principal(ServerRequest request) {
        return request.principal()
                .map(principal -> Optional.of(((Principal) principal).getName()))
                .defaultIfEmpty(Optional.empty());
    }

    private static String address(ServerRequest request) {
        return request.remoteAddress().map(ReactiveBreakerOperatorRoutes::host).orElse(null);
    }

    private static String host(InetSocketAddress address) {
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }

    private static Mono<ServerResponse> error(ErrorDescriptor error) {
        return answer(HttpStatus.valueOf(error.status()), error);
    }

    private static Mono<ServerResponse> answer(HttpStatus status, Object body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body);
    }
}
