package io.breaker.sample.simulator;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.util.Arrays;
import java.util.Locale;

/**
 * The simulated wholesaler's control panel, on the bookshop's own port:
 * {@code GET /wholesaler} shows its mode and how many requests reached it;
 * {@code PUT /wholesaler/mode/{mode}} switches it (healthy, slow, failing, throttling, down).
 */
@RestController
@RequestMapping("/wholesaler")
@ConditionalOnProperty(name = "bookshop.simulator.enabled", matchIfMissing = true)
public class SimulatorController {

    private final WholesalerSimulator simulator;

    public SimulatorController(WholesalerSimulator simulator) {
        this.simulator = simulator;
    }

    /** What the simulator is doing now. */
    public record SimulatorStatus(String mode, long requestsReceived, String url) {}

    @GetMapping
    public SimulatorStatus status() {
        return new SimulatorStatus(
                simulator.mode().name().toLowerCase(Locale.ROOT), simulator.requestsReceived(), simulator.baseUrl());
    }

    @PutMapping("/mode/{mode}")
    public SimulatorStatus switchMode(@PathVariable String mode) {
        simulator.switchTo(parse(mode));
        return status();
    }

    private static WholesalerMode parse(String mode) {
        try {
            return WholesalerMode.valueOf(mode.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(
                    HttpStatus.BAD_REQUEST,
                    "Unknown mode '" + mode + "'; allowed: "
                            + Arrays.toString(WholesalerMode.values()).toLowerCase(Locale.ROOT));
        }
    }
}
