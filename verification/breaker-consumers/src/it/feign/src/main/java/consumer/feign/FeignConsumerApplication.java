package consumer.feign;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

@SpringBootApplication
@EnableFeignClients
public class FeignConsumerApplication {

    public static void main(String[] args) {
        SpringApplication.run(FeignConsumerApplication.class, args);
    }

    /** A supplier's HTTP API, through the breaker named after the client, as the README shows. */
    @FeignClient(name = "supplier", url = "${supplier.url}", fallback = SupplierFallback.class)
    public interface SupplierClient {

        @GetMapping("/prices/{item}")
        String price(@PathVariable("item") String item);
    }

    @Component
    public static class SupplierFallback implements SupplierClient {

        @Override
        public String price(String item) {
            return "unknown";
        }
    }
}
