package consumer;

import io.breaker.spring.CircuitProtected;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;

@SpringBootApplication
public class ConsumerApplication {

    public static void main(String[] args) {
        SpringApplication.run(ConsumerApplication.class, args);
    }

    /** A call to a supplier that is down, protected as the README shows. */
    @Service
    public static class Supplier {

        @CircuitProtected(name = "supplier", fallbackMethod = "unknown")
        public String price(String item) {
            throw new IllegalStateException("the supplier is down");
        }

        String unknown(String item, Throwable cause) {
            return "unknown";
        }
    }
}
